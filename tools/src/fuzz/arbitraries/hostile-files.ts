import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';

/** What a hostile agent can leave where the host expects a file. */
export type HostileFile =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly bytes: string | Uint8Array }
  | { readonly kind: 'big'; readonly bytes: number }
  | { readonly kind: 'symlink'; readonly to: string }
  | { readonly kind: 'fifo' }
  | { readonly kind: 'dir' };

const MKFIFO = '/usr/bin/mkfifo';

/** Creates the hostile file at `path` (its parent exists). */
export function plantFile(path: string, f: HostileFile): void {
  if (f.kind === 'absent') return;
  if (f.kind === 'file') writeFileSync(path, typeof f.bytes === 'string' ? f.bytes : Buffer.from(f.bytes));
  else if (f.kind === 'big') writeFileSync(path, Buffer.alloc(f.bytes, 0x61));
  else if (f.kind === 'symlink') symlinkSync(f.to, path);
  else if (f.kind === 'dir') mkdirSync(join(path, 'inner'), { recursive: true });
  else {
    const r = spawnSync(MKFIFO, ['-m', '0600', path], { shell: false, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`mkfifo failed for a fuzz input (${String(r.status)})`);
  }
}

/** A hostile file whose regular-file content comes from `content`; `maxBytes` is the reader's limit. */
export function hostileFile(content: fc.Arbitrary<string | Uint8Array>, maxBytes: number): fc.Arbitrary<HostileFile> {
  return fc.oneof(
    { weight: 12, arbitrary: content.map((bytes) => ({ kind: 'file' as const, bytes })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'absent' as const }) },
    { weight: 1, arbitrary: fc.constantFrom(maxBytes, maxBytes + 1).map((bytes) => ({ kind: 'big' as const, bytes })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('/etc/passwd', '/dev/zero', 'nowhere', '.', '/proc/self/environ')
        .map((to) => ({ kind: 'symlink' as const, to })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'fifo' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'dir' as const }) },
  );
}
