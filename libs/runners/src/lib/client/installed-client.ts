import { closeSync, constants as fsc, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { CODING_CLIENTS, isClientVersion } from './coding-clients';
import type { CodingClientName } from './coding-clients';
import { hostClientPlatform, nativeBinaryCandidates } from './native-binary';
import type { ClientPlatform } from './native-binary';

/** A coding client installed by `genswarms clients install` (or the CI cache, same layout). */
export interface InstalledClient {
  readonly name: CodingClientName;
  readonly version: string;
  /** `<clientsDir>/<name>/<version>` as a real path: the npm prefix. */
  readonly prefix: string;
  /** `<prefix>/node_modules`: the whole tree a sandbox must see (Codex needs more than its binary). */
  readonly nodeModules: string;
  /** Absolute path of the native binary to exec (no link on the way from `prefix`). */
  readonly binary: string;
}

/** `reason` names paths and versions only. Only `missing` means "install it"; the others need a look. */
export type InstalledClientResolution =
  | { kind: 'ok'; client: InstalledClient }
  | { kind: 'missing'; reason: string }
  | { kind: 'invalid'; reason: string }
  | { kind: 'unsafe'; reason: string }
  | { kind: 'unsupported_platform'; reason: string };

export interface ResolveInstalledClientOptions {
  /** Default: the pinned version (CODING_CLIENTS). */
  readonly version?: string;
  /** Default: this host (hostClientPlatform). */
  readonly platform?: ClientPlatform;
  /** Owners accepted besides root; default: this process's uid. */
  readonly uid?: number;
}

/** Largest package.json read from an install (bytes); the real ones are about 1 KiB. */
export const CLIENT_MANIFEST_MAX_BYTES = 64 * 1024;

/** `$GENSWARMS_HOME/clients`: where installs go unless the operator names another directory. */
export function defaultClientsDir(home: string): string {
  return path.join(home, 'clients');
}

/** `<clientsDir>/<name>/<version>`; a version that is not exact semver is refused (`validation_failed`). */
export function clientInstallDir(clientsDir: string, name: CodingClientName, version: string): string {
  if (!path.isAbsolute(clientsDir)) throw new RunnerError('validation_failed', 'the clients directory must be an absolute path');
  if (!isClientVersion(version)) throw new RunnerError('validation_failed', `client version must be exact semver like 1.2.3`);
  return path.join(clientsDir, name, version);
}

/** The versions of `name` present under `clientsDir` (directory names that are exact versions), sorted. */
export function listInstalledVersions(clientsDir: string, name: CodingClientName): string[] {
  let entries: string[];
  try {
    entries = readdirSync(path.join(clientsDir, name));
  } catch {
    return []; // expected: nothing installed for this client
  }
  return entries.filter(isClientVersion).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/**
 * Finds an installed client's native binary, checking what runners will exec: every directory from
 * `clientsDir` to the prefix is a real directory owned by root or `uid` and not group/world-writable,
 * the package is the expected name and version, and the binary is a regular executable reached without
 * any link. Reads nothing outside `clientsDir`.
 */
export function resolveInstalledClient(
  clientsDir: string,
  name: CodingClientName,
  options: ResolveInstalledClientOptions = {},
): InstalledClientResolution {
  const version = options.version ?? CODING_CLIENTS[name].pinnedVersion;
  if (!path.isAbsolute(clientsDir)) return { kind: 'invalid', reason: 'the clients directory must be an absolute path' };
  if (!isClientVersion(version)) return { kind: 'invalid', reason: `version of ${name} must be exact semver like 1.2.3` };
  const platform = options.platform ?? hostClientPlatform();
  if (platform === undefined) return { kind: 'unsupported_platform', reason: `no ${name} build for ${process.platform}-${process.arch}` };
  const uid = options.uid ?? process.getuid?.() ?? 0;
  const prefix = path.join(clientsDir, name, version);
  for (const dir of [clientsDir, path.join(clientsDir, name), prefix]) {
    const problem = checkOwned(dir, uid, 'directory');
    if (problem !== undefined) return problem;
  }
  const real = realpathSync(prefix);
  const manifest = checkManifest(path.join(real, 'node_modules', CODING_CLIENTS[name].npmPackage, 'package.json'), name, version);
  if (manifest !== undefined) return manifest;
  return findBinary(name, version, real, platform, uid);
}

function findBinary(
  name: CodingClientName,
  version: string,
  prefix: string,
  platform: ClientPlatform,
  uid: number,
): InstalledClientResolution {
  const nodeModules = path.join(prefix, 'node_modules');
  const candidates = nativeBinaryCandidates(name, platform);
  if (candidates.length === 0) return { kind: 'unsupported_platform', reason: `no ${name} build for ${platform.os}-${platform.arch}` };
  for (const rel of candidates) {
    const file = path.join(nodeModules, rel);
    const problem = checkOwned(file, uid, 'binary');
    if (problem?.kind === 'missing') continue;
    if (problem !== undefined) return problem;
    if (realpathSync(file) !== file) return { kind: 'unsafe', reason: `${file} is reached through a symbolic link` };
    return { kind: 'ok', client: { name, version, prefix, nodeModules, binary: file } };
  }
  return {
    kind: 'missing',
    reason: `${prefix} has no ${name} binary for ${platform.os}-${platform.arch} (its platform package was not installed)`,
  };
}

function checkOwned(p: string, uid: number, what: 'directory' | 'binary'): Exclude<InstalledClientResolution, { kind: 'ok' }> | undefined {
  let st: Stats;
  try {
    st = lstatSync(p);
  } catch {
    return { kind: 'missing', reason: `${p} does not exist` }; // expected: not installed
  }
  if (st.isSymbolicLink()) return { kind: 'unsafe', reason: `${p} is a symbolic link` };
  if (what === 'directory' ? !st.isDirectory() : !st.isFile())
    return { kind: 'unsafe', reason: `${p} is not a ${what === 'directory' ? 'directory' : 'regular file'}` };
  if ((st.mode & 0o022) !== 0) return { kind: 'unsafe', reason: `${p} is group- or world-writable` };
  if (st.uid !== 0 && st.uid !== uid) return { kind: 'unsafe', reason: `${p} belongs to uid ${st.uid}, neither root nor ${uid}` };
  if (what === 'binary' && (st.mode & 0o111) === 0) return { kind: 'unsafe', reason: `${p} is not executable` };
  return undefined;
}

function checkManifest(
  file: string,
  name: CodingClientName,
  version: string,
): Exclude<InstalledClientResolution, { kind: 'ok' }> | undefined {
  const text = readSmallFile(file);
  if (text === undefined)
    return { kind: 'missing', reason: `${file} is missing, not a regular file, or over ${CLIENT_MANIFEST_MAX_BYTES} bytes` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    return { kind: 'invalid', reason: `${file} is not valid JSON` }; // expected: a damaged install
  }
  const fields = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const wanted = CODING_CLIENTS[name].npmPackage;
  if (fields['name'] !== wanted || fields['version'] !== version) {
    const found = `${String(fields['name']).slice(0, 80)}@${String(fields['version']).slice(0, 40)}`;
    return { kind: 'invalid', reason: `${file} is ${found}, expected ${wanted}@${version}` };
  }
  return undefined;
}

/** Reads a regular file through one descriptor (no link, no FIFO), at most CLIENT_MANIFEST_MAX_BYTES; undefined otherwise. */
function readSmallFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch {
    return undefined; // expected: absent or a link — reported as missing
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > CLIENT_MANIFEST_MAX_BYTES) return undefined;
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
