/**
 * Promise wrappers over ssh2's SFTP client, with the private-file rules of the local runners applied remotely:
 * directories 0700 and ours, files created exclusively 0600, nothing followed through a symlink we did not lstat.
 */
import * as path from 'node:path';
import type { Attributes, SFTPWrapper, Stats } from 'ssh2';
import { RunnerError } from '../errors/runner-error';

/** SFTP status NO_SUCH_FILE (draft-ietf-secsh-filexfer-02 §7). */
const SFTP_NO_SUCH_FILE = 2;

export function isNoSuchFile(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === SFTP_NO_SUCH_FILE;
}

/** One ssh2 SFTP callback call as a promise. */
export function sftpCall<T>(fn: (cb: (err: Error | null | undefined, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err === null || err === undefined ? resolve(value) : reject(err))));
}

export const sftpLstat = (s: SFTPWrapper, p: string): Promise<Stats> => sftpCall((cb) => s.lstat(p, cb));
export const sftpRealpath = (s: SFTPWrapper, p: string): Promise<string> => sftpCall((cb) => s.realpath(p, cb));
export const sftpUnlink = (s: SFTPWrapper, p: string): Promise<void> => sftpCall<void>((cb) => s.unlink(p, (e) => cb(e, undefined)));
export const sftpRename = (s: SFTPWrapper, from: string, to: string): Promise<void> =>
  sftpCall<void>((cb) => s.ext_openssh_rename(from, to, (e) => cb(e, undefined)));
export const sftpReaddir = (s: SFTPWrapper, p: string): Promise<string[]> =>
  sftpCall<{ filename: string }[]>((cb) => s.readdir(p, cb)).then((list) => list.map((e) => e.filename));

/** lstat, or null when the path does not exist. */
export async function sftpLstatOrNull(s: SFTPWrapper, p: string): Promise<Stats | null> {
  try {
    return await sftpLstat(s, p);
  } catch (e) {
    if (isNoSuchFile(e)) return null;
    throw e;
  }
}

/** Removes a file if present (never a directory). */
export async function sftpRemoveIfPresent(s: SFTPWrapper, p: string): Promise<void> {
  try {
    await sftpUnlink(s, p);
  } catch (e) {
    if (!isNoSuchFile(e)) throw e;
  }
}

/**
 * A private remote directory: created 0700 when missing, then lstat-checked — a directory (not a link),
 * owned by `uid`, no group/world bits. Anything else → `state_dir_unsafe` (never chmod'ed into shape).
 */
export async function sftpEnsurePrivateDir(s: SFTPWrapper, dir: string, uid: number): Promise<void> {
  let st = await sftpLstatOrNull(s, dir);
  if (st === null) {
    await sftpCall<void>((cb) => s.mkdir(dir, { mode: 0o700 } as Attributes, (e) => cb(e, undefined)));
    st = await sftpLstat(s, dir);
  }
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) {
    throw new RunnerError('state_dir_unsafe', `remote directory ${dir} is not a private directory of the ssh user (0700, ours, no link)`, {
      details: { dir },
    });
  }
}

/**
 * Writes `data` to a new remote file: a stale file is removed, then created exclusively (`wx`) with `mode`,
 * fstat-checked (regular, ours, no group/world bits) before a byte is written. Secrets go only through here.
 */
export async function sftpWriteNewFile(s: SFTPWrapper, file: string, data: Buffer, uid: number, mode = 0o600): Promise<void> {
  await sftpRemoveIfPresent(s, file);
  const handle = await sftpCall<Buffer>((cb) => s.open(file, 'wx', { mode: 0o600 } as Attributes, cb));
  try {
    const st = await sftpCall<Stats>((cb) => s.fstat(handle, cb));
    if (!st.isFile() || st.uid !== uid || (st.mode & 0o077) !== 0) {
      throw new RunnerError('state_dir_unsafe', `remote file ${path.posix.basename(file)} was not created private`, { details: { file } });
    }
    let off = 0;
    while (off < data.length) {
      const n = Math.min(32768, data.length - off);
      await sftpCall<void>((cb) => s.write(handle, data, off, n, off, (e) => cb(e, undefined)));
      off += n;
    }
    if (mode !== 0o600) await sftpCall<void>((cb) => s.fchmod(handle, mode, (e) => cb(e, undefined)));
  } finally {
    await sftpCall<void>((cb) => s.close(handle, (e) => cb(e, undefined)));
  }
}

/** The uid files we create get on the remote host: a probe file in `dir`, created exclusively, fstat'ed, removed. */
export async function sftpProbeUid(s: SFTPWrapper, dir: string): Promise<number> {
  const probe = path.posix.join(dir, `.genswarms-ssh-probe-${process.pid}-${Date.now()}`);
  const handle = await sftpCall<Buffer>((cb) => s.open(probe, 'wx', { mode: 0o600 } as Attributes, cb));
  try {
    return (await sftpCall<Stats>((cb) => s.fstat(handle, cb))).uid;
  } finally {
    await sftpCall<void>((cb) => s.close(handle, (e) => cb(e, undefined)));
    await sftpRemoveIfPresent(s, probe);
  }
}

/** Reads a whole small file we own (pid, exit status); null when missing. Bounded to `max` bytes. */
export async function sftpReadSmall(s: SFTPWrapper, file: string, max: number): Promise<string | null> {
  const st = await sftpLstatOrNull(s, file);
  if (st === null || !st.isFile() || st.size > max) return null;
  const r = await readRemoteBounded(s, file, st, max, 5000);
  return r.kind === 'ok' ? r.data.toString('utf8') : null;
}

export type RemoteRead =
  | { readonly kind: 'ok'; readonly data: Buffer }
  | { readonly kind: 'refused'; readonly reason: 'receipt_replaced' | 'receipt_too_large' | 'receipt_not_regular' };

function sameAttributes(a: Stats, b: Stats): boolean {
  return a.mode === b.mode && a.uid === b.uid && a.gid === b.gid && a.size === b.size && a.mtime === b.mtime;
}

/**
 * Reads a file whose lstat (`before`) said regular and small enough: open, fstat (same attributes as the
 * lstat), read at most `max` + 1 bytes, fstat and lstat again (still the same). Any change → `receipt_replaced`;
 * more than `max` bytes → `receipt_too_large`. The open is bounded by `openTimeoutMs`: a file swapped for a FIFO
 * after the lstat would block the SFTP server's open (docs/security.md "ssh: the lstat/read window").
 */
/**
 * Opens `file` for reading, giving up after `timeoutMs` (null): a FIFO swapped in after our lstat blocks the SFTP
 * server's open, and a handle that arrives late is closed.
 */
export async function sftpOpenBounded(s: SFTPWrapper, file: string, timeoutMs: number): Promise<Buffer | null> {
  let timer: NodeJS.Timeout | undefined;
  const opened = sftpCall<Buffer>((cb) => s.open(file, 'r', cb));
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  const handle = await Promise.race([opened, timeout]).finally(() => clearTimeout(timer));
  if (handle === null) {
    opened.then(
      (h) => s.close(h, () => undefined),
      () => undefined, // expected: the open failed after we gave up on it
    );
  }
  return handle;
}

export async function readRemoteBounded(
  s: SFTPWrapper,
  file: string,
  before: Stats,
  max: number,
  openTimeoutMs: number,
): Promise<RemoteRead> {
  const handle = await sftpOpenBounded(s, file, openTimeoutMs);
  if (handle === null) return { kind: 'refused', reason: 'receipt_not_regular' };
  try {
    const atOpen = await sftpCall<Stats>((cb) => s.fstat(handle, cb));
    if (!atOpen.isFile()) return { kind: 'refused', reason: 'receipt_not_regular' };
    if (!sameAttributes(before, atOpen)) return { kind: 'refused', reason: 'receipt_replaced' };
    const { got, data, atEnd, after } =
      before.size < SFTP_PIPELINED_READ_MAX_BYTES
        ? await readPipelined(s, handle, file, before.size)
        : await readLooped(s, handle, file, max);
    if (got > max) return { kind: 'refused', reason: 'receipt_too_large' };
    if (got !== before.size || !sameAttributes(before, atEnd) || after === null || !sameAttributes(before, after)) {
      return { kind: 'refused', reason: 'receipt_replaced' };
    }
    return { kind: 'ok', data };
  } finally {
    // not waited for: the server closes the handle after our last request
    void sftpCall<void>((cb) => s.close(handle, (e) => cb(e, undefined))).catch(() => undefined); // best-effort: a closed channel drops the handle
  }
}

/**
 * A file this small comes back from one SFTP read whole: the read of `size + 1` bytes, the fstat and the lstat go out
 * together (one round trip; the server answers them in order). A read of `size + 1` bytes that returns `size` met
 * the end of the file (the loop proves it with one more read); any other count is refused by the caller.
 */
export const SFTP_PIPELINED_READ_MAX_BYTES = 16_384;

interface TailRead {
  readonly got: number;
  readonly data: Buffer;
  readonly atEnd: Stats;
  readonly after: Stats | null;
}

async function readPipelined(s: SFTPWrapper, handle: Buffer, file: string, size: number): Promise<TailRead> {
  const buf = Buffer.alloc(size + 1);
  const [got, atEnd, after] = await Promise.all([
    sftpCall<number>((cb) => s.read(handle, buf, 0, size + 1, 0, (e, bytes) => cb(e, bytes))),
    sftpCall<Stats>((cb) => s.fstat(handle, cb)),
    sftpLstatOrNull(s, file),
  ]);
  return { got, data: buf.subarray(0, got), atEnd, after };
}

/** Reads at most `max` + 1 bytes until the end of the file, then fstat and lstat again. */
async function readLooped(s: SFTPWrapper, handle: Buffer, file: string, max: number): Promise<TailRead> {
  const buf = Buffer.alloc(max + 1);
  let got = 0;
  for (;;) {
    const n = await sftpCall<number>((cb) => s.read(handle, buf, got, buf.length - got, got, (e, bytes) => cb(e, bytes)));
    if (n === 0) break;
    got += n;
    if (got > max) break;
  }
  const atEnd = await sftpCall<Stats>((cb) => s.fstat(handle, cb));
  const after = await sftpLstatOrNull(s, file);
  return { got, data: buf.subarray(0, got), atEnd, after };
}
