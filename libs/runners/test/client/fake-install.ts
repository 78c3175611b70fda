import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CODING_CLIENTS, hostClientPlatform, nativeBinaryCandidates } from '../../src/index';
import type { CodingClientName } from '../../src/index';

/** This host's client platform (undefined where no client ships a binary: those specs skip). */
export const platform = hostClientPlatform();

/**
 * The layout `genswarms clients install` leaves (package.json + the platform binary), with a small sh
 * script as the "binary" (default: exits 0). Returns the binary's path.
 */
export function fakeInstall(
  clientsDir: string,
  name: CodingClientName,
  manifestName: string = CODING_CLIENTS[name].npmPackage,
  script = '#!/bin/sh\nexit 0\n',
): string {
  const prefix = path.join(clientsDir, name, CODING_CLIENTS[name].pinnedVersion);
  const pkg = path.join(prefix, 'node_modules', CODING_CLIENTS[name].npmPackage);
  mkdirSync(pkg, { recursive: true, mode: 0o755 });
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: manifestName, version: CODING_CLIENTS[name].pinnedVersion }));
  const rel = platform === undefined ? '' : (nativeBinaryCandidates(name, platform)[0] ?? '');
  const binary = path.join(prefix, 'node_modules', rel);
  mkdirSync(path.dirname(binary), { recursive: true, mode: 0o755 });
  writeFileSync(binary, script, { mode: 0o755 });
  return binary;
}
