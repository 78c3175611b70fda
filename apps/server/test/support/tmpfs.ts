import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const MOUNT = '/usr/bin/mount';
const UMOUNT = '/usr/bin/umount';

/** A small tmpfs the test mounted (never the real disk), and how to fill, free, grow and unmount it. */
export interface TestTmpfs {
  readonly path: string;
  /** Writes filler files until the file system answers ENOSPC; returns the bytes written. */
  fill(): number;
  /** Deletes the filler. */
  free(): void;
  /** `mount -o remount,size=<mib>m`: more room without touching a file. */
  grow(mib: number): void;
  unmount(): void;
}

function run(bin: string, args: readonly string[]): { ok: boolean; err: string } {
  const r = spawnSync(bin, [...args], { shell: false, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  return { ok: r.status === 0, err: `${r.stderr ?? ''}${r.error === undefined ? '' : String(r.error)}`.trim() };
}

/** Mounts a `mib` MiB tmpfs (mode 0711) on `dir` (created); `{unavailable}` when this host cannot (the caller skips loudly). */
export function mountTmpfs(dir: string, mib: number): TestTmpfs | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: 'mounting a tmpfs needs root' };
  if (!existsSync(MOUNT)) return { unavailable: `${MOUNT} not found` };
  mkdirSync(dir, { recursive: true });
  const mounted = run(MOUNT, ['-t', 'tmpfs', '-o', `size=${mib}m,mode=0711`, 'gs-test-tmpfs', dir]);
  if (!mounted.ok) return { unavailable: `mount -t tmpfs failed: ${mounted.err}` };
  const filler = join(dir, 'filler');
  let fillers = 0;
  return {
    path: dir,
    fill() {
      mkdirSync(filler, { recursive: true, mode: 0o700 });
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      let written = 0;
      for (;;) {
        const fd = openSync(join(filler, `f${fillers++}`), 'w');
        try {
          for (let i = 0; i < 16; i++) written += writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return written;
          throw err;
        } finally {
          closeSync(fd);
        }
      }
    },
    free() {
      rmSync(filler, { recursive: true, force: true });
    },
    grow(size) {
      const r = run(MOUNT, ['-o', `remount,size=${size}m`, dir]);
      if (!r.ok) throw new Error(`remount failed: ${r.err}`);
    },
    unmount() {
      const r = run(UMOUNT, [dir]);
      if (!r.ok) run(UMOUNT, ['-l', dir]); // lazy: a process of the test still holds a file open
    },
  };
}
