import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsc, lstatSync, mkdirSync, open, renameSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

const openAsync = promisify(open);

/** Turn ids are engine-made: `^[a-z0-9_-]{1,64}$` (docs/receipts.md). */
const TURN_ID_RE = /^[a-z0-9_-]{1,64}$/;

/**
 * What a well-behaved client does (docs/receipts.md): `reply.md`, then `done.json`, each written to a
 * temporary file (O_EXCL|O_NOFOLLOW, 0600) and renamed into place, in `W/.genswarms/turns/<id>/`.
 */
export async function writeMockReceipt(workspace: string, turnId: string, reply: string): Promise<void> {
  if (!TURN_ID_RE.test(turnId)) throw new RunnerError('validation_failed', 'invalid turn id');
  let dir = workspace;
  for (const part of ['.genswarms', 'turns', turnId]) {
    dir = path.join(dir, part);
    ensureRealDir(dir);
  }
  await writeAtomically(dir, 'reply.md', reply);
  await writeAtomically(dir, 'done.json', JSON.stringify({ v: 1, turn: turnId, status: 'ok' }));
}

/*
 * The mock stands in for a client process, but runs on the server's event loop, where a thread-pool
 * round trip per call cost more than the calls. The directories already exist (the engine prepared the turn
 * dir), so one lstat answers and mkdir runs only for a missing one: a mkdir first answered EEXIST three times a
 * turn, each a thrown Error (~5 µs) on the server's loop. Only creating the temp file (an inode) stays asynchronous.
 */
function ensureRealDir(dir: string): void {
  let st = lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    st = lstatSync(dir);
  }
  if (!st.isDirectory()) throw new RunnerError('runner_error', `${path.basename(dir)} is not a real directory`);
}

async function writeAtomically(dir: string, name: string, data: string): Promise<void> {
  const tmp = path.join(dir, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  const fd = await openAsync(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    const bytes = Buffer.from(data, 'utf8');
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path.join(dir, name));
}
