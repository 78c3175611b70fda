/**
 * The files a turn exchanges with a remote client, over SFTP (docs/runners.md "ssh"): the engine keeps writing and
 * reading the agent's LOCAL workspace; this module pushes `.inbox` up and pulls `.outbox` and the turn's receipt
 * down, reading every remote file under the receipt rules (docs/receipts.md) and mirroring only verified bytes.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { SFTPWrapper, Stats } from 'ssh2';
import {
  DONE_FILE,
  DONE_MAX_BYTES,
  REPLY_FILE,
  REPLY_MAX_BYTES,
  isTurnId,
  readTurnReceipt,
  readUntrustedFile,
  writeFileUnder,
  type TurnReceipt,
} from '@genswarms/receipts';
import {
  readRemoteBounded,
  sftpEnsurePrivateDir,
  sftpLstatOrNull,
  sftpReaddir,
  sftpRemoveIfPresent,
  sftpRename,
  sftpWriteNewFile,
} from './sftp-io';

/** Cap on one inbox or outbox file moved over SFTP (the engine's own outbox bound). */
export const SSH_MAILBOX_FILE_MAX_BYTES = 1_048_576;
/** Outbox files pulled per poll (the rest wait for the next poll). */
export const SSH_OUTBOX_BATCH = 64;
/** A remote open that does not answer within this is refused (a FIFO swapped in after the lstat). */
export const SSH_OPEN_TIMEOUT_MS = 5000;
const MAILBOX_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export interface RemoteWorkspace {
  readonly sftp: () => Promise<SFTPWrapper>;
  /** The remote workspace (absolute, generated name). */
  readonly remote: string;
  /** The local mirror the engine reads and writes (its real path). */
  readonly local: string;
  /** The ssh user's uid on the remote host. */
  readonly uid: number;
}

type FinalReceipt = Exclude<TurnReceipt, { kind: 'pending' }>;

/** Uploads local inbox files (and ask replies) the remote side does not have yet; `sent` remembers name → size:mtime. */
export async function pushInbox(rw: RemoteWorkspace, sent: Map<string, string>): Promise<void> {
  for (const sub of [[], ['replies']] as const) {
    const localDir = path.join(rw.local, '.inbox', ...sub);
    let names: string[];
    try {
      names = (await fsp.readdir(localDir)).filter((n) => MAILBOX_NAME_RE.test(n) && n.endsWith('.json'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    const pending: { name: string; key: string; stamp: string }[] = [];
    for (const name of names) {
      const key = `${sub.join('/')}/${name}`;
      // expected: the engine may remove an inbox file between readdir and lstat; it is simply not sent
      const st = await fsp.lstat(path.join(localDir, name)).catch(() => null);
      if (st === null || !st.isFile()) continue;
      const stamp = `${st.size}:${st.mtimeMs}`;
      if (sent.get(key) !== stamp) pending.push({ name, key, stamp });
    }
    if (pending.length === 0) continue; // the common poll: no SFTP round trip at all
    const s = await rw.sftp();
    const remoteDir = path.posix.join(rw.remote, '.inbox', ...sub);
    await sftpEnsurePrivateDir(s, path.posix.join(rw.remote, '.inbox'), rw.uid);
    if (sub.length > 0) await sftpEnsurePrivateDir(s, remoteDir, rw.uid);
    for (const { name, key, stamp } of pending) {
      const read = await readUntrustedFile(localDir, name, SSH_MAILBOX_FILE_MAX_BYTES);
      if (read.kind !== 'ok') continue;
      // temp + rename: the client never sees a half-written inbox file
      const tmp = path.posix.join(remoteDir, `.${name}.upload`);
      await sftpWriteNewFile(s, tmp, read.data, rw.uid);
      await sftpRename(s, tmp, path.posix.join(remoteDir, name));
      sent.set(key, stamp);
    }
  }
}

/** Creates the remote turn directory chain (0700 each) the client writes its receipt into. */
export async function prepareRemoteTurnDir(rw: RemoteWorkspace, turnId: string): Promise<void> {
  if (!isTurnId(turnId)) throw new Error('invalid turn id');
  const s = await rw.sftp();
  let dir = rw.remote;
  for (const c of ['.genswarms', 'turns', turnId]) {
    dir = path.posix.join(dir, c);
    await sftpEnsurePrivateDir(s, dir, rw.uid);
  }
}

/**
 * Moves remote `.outbox/*.json` files into the local `.outbox` the engine drains: each read under the receipt rules,
 * written locally through `writeFileUnder`, then deleted remotely. A refused remote file is deleted, never mirrored,
 * and counted in the result (the caller reports it).
 */
export async function pullOutbox(rw: RemoteWorkspace): Promise<{ moved: number; refused: string[] }> {
  const s = await rw.sftp();
  const dir = path.posix.join(rw.remote, '.outbox');
  const st = await sftpLstatOrNull(s, dir);
  if (st === null || !st.isDirectory()) return { moved: 0, refused: [] };
  const names = (await sftpReaddir(s, dir)).filter((n) => MAILBOX_NAME_RE.test(n) && n.endsWith('.json')).sort();
  let moved = 0;
  const refused: string[] = [];
  for (const name of names.slice(0, SSH_OUTBOX_BATCH)) {
    const file = path.posix.join(dir, name);
    const read = await readRemoteFile(s, file, SSH_MAILBOX_FILE_MAX_BYTES);
    if (read.kind === 'missing') continue;
    if (read.kind === 'ok') {
      const w = await writeFileUnder(rw.local, ['.outbox'], name, read.data);
      if (w.kind !== 'ok') refused.push(name);
      else moved += 1;
    } else {
      refused.push(name);
    }
    await sftpRemoveIfPresent(s, file);
  }
  return { moved, refused };
}

type RemoteFile = { kind: 'ok'; data: Buffer } | { kind: 'missing' } | { kind: 'refused'; reason: FinalReceiptReason };
type FinalReceiptReason = Extract<FinalReceipt, { kind: 'refused' }>['reason'];

function refusalOf(st: Stats, max: number): FinalReceiptReason | null {
  if (st.isSymbolicLink()) return 'receipt_symlink';
  if (!st.isFile()) return 'receipt_not_regular';
  if (st.size > max) return 'receipt_too_large';
  return null;
}

async function readRemoteFile(s: SFTPWrapper, file: string, max: number): Promise<RemoteFile> {
  const st = await sftpLstatOrNull(s, file);
  if (st === null) return { kind: 'missing' };
  const refused = refusalOf(st, max);
  if (refused !== null) return { kind: 'refused', reason: refused };
  return readRemoteBounded(s, file, st, max, SSH_OPEN_TIMEOUT_MS);
}

/**
 * One look at the remote receipt of `turnId`: `pending` while `done.json` is absent; a refusal for a link,
 * FIFO/device/directory, oversize or a file that changed while read; otherwise the verified bytes are written
 * into the local turn directory and parsed there by the same reader local agents go through.
 */
export async function readRemoteReceipt(rw: RemoteWorkspace, turnId: string): Promise<TurnReceipt> {
  if (!isTurnId(turnId)) throw new Error('invalid turn id');
  const s = await rw.sftp();
  // The common poll is one round trip: nothing yet. Once done.json exists, the chain is checked link by link.
  if ((await sftpLstatOrNull(s, path.posix.join(rw.remote, '.genswarms', 'turns', turnId, DONE_FILE))) === null) return { kind: 'pending' };
  let dir = rw.remote;
  for (const c of ['.genswarms', 'turns', turnId]) {
    dir = path.posix.join(dir, c);
    const st = await sftpLstatOrNull(s, dir);
    if (st === null) return { kind: 'pending' };
    if (st.isSymbolicLink()) return { kind: 'refused', reason: 'receipt_symlink', file: 'directory' };
    if (!st.isDirectory()) return { kind: 'refused', reason: 'receipt_not_regular', file: 'directory' };
  }
  const done = await readRemoteFile(s, path.posix.join(dir, DONE_FILE), DONE_MAX_BYTES);
  if (done.kind === 'missing') return { kind: 'pending' };
  if (done.kind === 'refused') return { kind: 'refused', reason: done.reason, file: 'done.json' };
  const reply = await readRemoteFile(s, path.posix.join(dir, REPLY_FILE), REPLY_MAX_BYTES);
  if (reply.kind === 'refused') return { kind: 'refused', reason: reply.reason, file: 'reply.md' };
  const components = ['.genswarms', 'turns', turnId];
  if (reply.kind === 'ok') {
    const w = await writeFileUnder(rw.local, components, REPLY_FILE, reply.data);
    if (w.kind !== 'ok') return { kind: 'refused', reason: 'receipt_not_regular', file: 'directory' };
  }
  const w = await writeFileUnder(rw.local, components, DONE_FILE, done.data);
  if (w.kind !== 'ok') return { kind: 'refused', reason: 'receipt_not_regular', file: 'directory' };
  return readTurnReceipt(rw.local, turnId);
}
