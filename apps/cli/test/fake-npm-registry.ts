import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One package a fake registry serves: its package.json and its other files (path → [content, mode]). */
export interface FakePackage {
  readonly manifest: { readonly name: string; readonly version: string } & Record<string, unknown>;
  readonly files: Readonly<Record<string, readonly [string, number]>>;
}

export interface FakeRegistry {
  readonly url: string;
  /** Paths npm asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A real npm registry on 127.0.0.1:0 (packuments and tarballs packed by GNU tar), for running the real
 * npm offline. A fake of the registry port, not a mock of npm: npm resolves, fetches, verifies integrity
 * and lays out node_modules itself.
 */
export async function startFakeRegistry(packages: readonly FakePackage[]): Promise<FakeRegistry> {
  const work = mkdtempSync(join(tmpdir(), 'gs-fake-registry-'));
  const tarballs = new Map<string, Buffer>();
  const packuments = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push(path);
    const tarball = tarballs.get(path);
    const packument = packuments.get(path.slice(1));
    if (tarball !== undefined) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(tarball);
    } else if (packument !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(packument));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const [i, pkg] of packages.entries()) {
    const tgz = pack(join(work, String(i)), pkg);
    const tarPath = `/-/tarballs/${i}.tgz`;
    tarballs.set(tarPath, tgz);
    const dist = {
      tarball: `${url}${tarPath}`,
      shasum: createHash('sha1').update(tgz).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
    };
    const name = pkg.manifest.name;
    const packument = packuments.get(name) ?? { name, 'dist-tags': { latest: pkg.manifest.version }, versions: {} };
    (packument['versions'] as Record<string, unknown>)[pkg.manifest.version] = { ...pkg.manifest, dist };
    packuments.set(name, packument);
  }
  return {
    url,
    requests,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

function pack(dir: string, pkg: FakePackage): Buffer {
  const root = join(dir, 'package');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify(pkg.manifest));
  for (const [file, [content, mode]] of Object.entries(pkg.files)) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), content);
    chmodSync(join(root, file), mode);
  }
  const out = join(dir, 'package.tgz');
  const run = spawnSync('tar', ['-czf', out, '-C', dir, 'package'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tar failed: ${run.stderr}`);
  return readFileSync(out);
}
