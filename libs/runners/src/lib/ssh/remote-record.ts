/**
 * The host's own record of the last remote client it started (or adopted) for an agent: `<dir>/<agent id>.json`
 * (0600 in a 0700 directory of the server user; the ssh runner keeps them in `$GENSWARMS_HOME/ssh-clients`). A new start of the agent stops that client by this
 * record — what an agent can write on its host never chooses the process a stop signals. It is overwritten, never
 * removed: a record of a client that is gone matches no process, and the stop it leads to signals nothing.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsc, fstatSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { ensurePrivateDirSync, isFdAt } from '../state/state-dir';
import type { RemoteLeader } from './remote-leader';

/** The record is a few short fields; anything larger is not one of ours. */
const RECORD_MAX_BYTES = 2048;
const RECORD_KEYS = ['dir', 'host', 'pid', 'port', 'startTime', 'user', 'version'];

/** Where the client ran (user, host, port, remote agent dir) and its group leader. */
export interface RemoteRecord extends RemoteLeader {
  readonly user: string;
  readonly host: string;
  readonly port: number;
  readonly dir: string;
}

export type RemoteRecordLoad =
  | { readonly kind: 'ok'; readonly record: RemoteRecord }
  | { readonly kind: 'missing' }
  | { readonly kind: 'invalid'; readonly reason: string };

const fileOf = (dir: string, agentId: string): string => {
  if (!/^[0-9a-f]{32}$/.test(agentId)) throw new RunnerError('validation_failed', 'a remote agent id is 32 hex characters');
  return path.join(dir, `${agentId}.json`);
};

/** Writes the record atomically (exclusive 0600 temp file, then rename), creating `dir` 0700. */
export function writeRemoteRecord(dir: string, agentId: string, uid: number, record: RemoteRecord): void {
  const file = fileOf(dir, agentId);
  ensurePrivateDirSync(dir, uid);
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    if (!isFdAt(fd, tmp)) throw new RunnerError('state_dir_unsafe', `${tmp} was replaced while opening`, { details: { path: tmp } });
    writeFileSync(fd, `${JSON.stringify({ version: 1, ...pickRecord(record) })}\n`, 'utf8');
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

function pickRecord(r: RemoteRecord): RemoteRecord {
  return { user: r.user, host: r.host, port: r.port, dir: r.dir, pid: r.pid, startTime: r.startTime };
}

/** Reads the record through one descriptor: a regular file of `uid`, 0600-or-stricter, small, exactly our fields. */
export function readRemoteRecord(dir: string, agentId: string, uid: number): RemoteRecordLoad {
  const file = fileOf(dir, agentId);
  let fd: number;
  try {
    fd = openSync(file, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', reason: `the record cannot be opened (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.uid !== uid || (st.mode & 0o077) !== 0 || st.size > RECORD_MAX_BYTES) {
      return { kind: 'invalid', reason: `the record is not a small private file of the server user` };
    }
    const buf = Buffer.alloc(RECORD_MAX_BYTES + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return parseRemoteRecord(buf.subarray(0, n).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/** Parses the record's text; a reason names the field, never its value. */
export function parseRemoteRecord(text: string): RemoteRecordLoad {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // expected: a damaged record is reported as invalid
    return { kind: 'invalid', reason: `the record is not JSON` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'invalid', reason: 'not an object' };
  const o = raw as Record<string, unknown>;
  if (Object.keys(o).sort().join(',') !== RECORD_KEYS.join(',')) return { kind: 'invalid', reason: 'unexpected fields' };
  const { user, host, port, dir, pid, startTime } = o;
  if (o['version'] !== 1) return { kind: 'invalid', reason: 'version' };
  if (typeof user !== 'string' || typeof host !== 'string' || typeof dir !== 'string') return { kind: 'invalid', reason: 'user/host/dir' };
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return { kind: 'invalid', reason: 'port' };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid < 1) return { kind: 'invalid', reason: 'pid' };
  if (typeof startTime !== 'string' || !/^[0-9]{1,20}$/.test(startTime)) return { kind: 'invalid', reason: 'startTime' };
  return { kind: 'ok', record: { user, host, port, dir, pid, startTime } };
}
