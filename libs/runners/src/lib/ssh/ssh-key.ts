/** The operator's private key file (`backend.opts.key_path`): read once, never logged, never stored. */
import { constants as fsc, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

/** Cap on a private key file (bytes): an OpenSSH RSA-16384 key is far below it. */
export const SSH_KEY_MAX_BYTES = 64 * 1024;

/**
 * Reads a private key the way OpenSSH insists on: an absolute path, not a symlink, a regular file owned by
 * this process's uid with no group/world bits (`mode & 0o077 === 0`). Anything else → `ssh_key_unsafe`
 * (the message names the rule and the path, never content).
 */
export async function readPrivateKey(keyPath: string, uid: number): Promise<Buffer> {
  const refuse = (why: string, cause?: unknown) =>
    new RunnerError('ssh_key_unsafe', `key_path ${keyPath} ${why} (fail-closed: no connection).`, {
      details: { key_path: keyPath },
      ...(cause === undefined ? {} : { cause }),
    });
  if (!path.isAbsolute(keyPath) || path.normalize(keyPath) !== keyPath) throw refuse('must be an absolute, normalised path');
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(keyPath, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw refuse(code === 'ELOOP' ? 'is a symlink' : 'cannot be opened', e);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw refuse('is not a regular file');
    if (st.uid !== uid) throw refuse('is not owned by the server user');
    if ((st.mode & 0o077) !== 0) throw refuse('is readable by group or others (chmod 600 it)');
    if (st.size > SSH_KEY_MAX_BYTES) throw refuse(`is larger than ${SSH_KEY_MAX_BYTES} bytes`);
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
