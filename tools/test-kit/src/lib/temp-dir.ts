import { chmodSync, lstatSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestKitError } from './test-kit-error';

/** Mode of every kit temp dir: the specs plant sockets, receipts and secrets in them. */
export const TEMP_DIR_MODE = 0o700;

export interface TempDir {
  /** Real path (no symlink in it: the libs compare real paths), mode 0700, owned by this process's uid. */
  readonly path: string;
  /** Removes the tree; safe to call twice. */
  cleanup(): void;
}

/** A fresh private directory under the OS temp dir; `prefix` is a plain name such as `gs-runner-`. */
export function tempDir(prefix: string): TempDir {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(prefix) || prefix.startsWith('.')) {
    throw new TestKitError(
      'invalid_option',
      `tempDir: the prefix must be a plain name ([A-Za-z0-9._-], no leading dot), got ${JSON.stringify(prefix)}`,
    );
  }
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  chmodSync(path, TEMP_DIR_MODE);
  const st = lstatSync(path);
  if (!st.isDirectory() || (st.mode & 0o777) !== TEMP_DIR_MODE || (process.getuid !== undefined && st.uid !== process.getuid())) {
    rmSync(path, { recursive: true, force: true });
    throw new TestKitError('invalid_option', `tempDir: ${path} is not a private directory of this user`);
  }
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
