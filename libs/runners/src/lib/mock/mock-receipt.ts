import { randomBytes } from 'node:crypto';
import { constants as fsc, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';

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
    await ensureRealDir(dir);
  }
  await writeAtomically(dir, 'reply.md', reply);
  await writeAtomically(dir, 'done.json', JSON.stringify({ v: 1, turn: turnId, status: 'ok' }));
}

async function ensureRealDir(dir: string): Promise<void> {
  try {
    await fsp.mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = await fsp.lstat(dir);
  if (!st.isDirectory()) throw new RunnerError('runner_error', `${path.basename(dir)} is not a real directory`);
}

async function writeAtomically(dir: string, name: string, data: string): Promise<void> {
  const tmp = path.join(dir, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await fsp.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(data, 'utf8');
  } finally {
    await handle.close();
  }
  await fsp.rename(tmp, path.join(dir, name));
}
