import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root (tools/src/build-once → ../../..). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Held while one process runs `tsc -b`; holds the owner's pid. */
const DEFAULT_LOCK_DIR = path.join(REPO_ROOT, '.nx', 'build-once.lock');
const LOCK_WAIT_MS = 600_000;
const POLL_MS = 100;

export type BuildResult = { readonly kind: 'ok' } | { readonly kind: 'failed'; readonly output: string };

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function ownerAlive(lockDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(lockDir, 'owner'), 'utf8'));
  } catch {
    // expected: no pid yet, the owner is writing it — unless the lock is old (its owner died right after mkdir)
    try {
      return Date.now() - statSync(lockDir).mtimeMs < 10_000;
    } catch {
      // expected: a lock that vanished is not fresh
      return false;
    }
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function acquire(lockDir: string): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  mkdirSync(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir, { mode: 0o700 });
      const fd = openSync(path.join(lockDir, 'owner'), 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (!ownerAlive(lockDir)) rmSync(lockDir, { recursive: true, force: true }); // a crashed holder
    if (Date.now() > deadline) throw new Error(`build-once: ${lockDir} held for over ${LOCK_WAIT_MS} ms`);
    sleepSync(POLL_MS);
  }
}

/**
 * `tsc -b <tsconfigs…>` (argv, no shell) under a repository-wide lock. Jest runs several projects (and
 * workers) at once; two concurrent `tsc -b` over shared references race (one reads a dist the other
 * is still writing). Serialised, the first build writes and every later one finds the outputs up to date.
 */
export function buildOnce(tsconfigs: readonly string[], opts: { readonly lockDir?: string } = {}): BuildResult {
  const tsc = require.resolve('typescript/bin/tsc');
  const lockDir = opts.lockDir ?? DEFAULT_LOCK_DIR;
  acquire(lockDir);
  try {
    const built = spawnSync(process.execPath, [tsc, '-b', ...tsconfigs], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      shell: false,
      timeout: LOCK_WAIT_MS,
    });
    return built.status === 0
      ? { kind: 'ok' }
      : { kind: 'failed', output: `${built.stdout ?? ''}${built.stderr ?? ''}${built.error?.message ?? ''}` };
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
