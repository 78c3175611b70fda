import { mkdir, mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newTurnId, prepareTurnDir } from '../../src/index';

/** A real workspace with a prepared turn directory, plus an `outside` directory the agent must never reach. */
export interface TurnFixture {
  readonly root: string;
  readonly workspace: string;
  readonly turnId: string;
  readonly turnDir: string;
  readonly outside: string;
  writeAtomic(name: string, content: string | Buffer): Promise<void>;
  writeDone(value: unknown): Promise<void>;
  writeReply(content: string | Buffer): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeTurnFixture(): Promise<TurnFixture> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'receipts-')));
  const workspace = join(root, 'ws');
  const outside = join(root, 'outside');
  await mkdir(workspace, { mode: 0o700 });
  await mkdir(outside, { mode: 0o700 });
  const turnId = newTurnId();
  const prepared = await prepareTurnDir(workspace, turnId);
  if (prepared.kind !== 'ok') throw new Error(`fixture: prepareTurnDir refused (${prepared.reason})`);
  const turnDir = prepared.dir;
  const writeAtomic = async (name: string, content: string | Buffer): Promise<void> => {
    const tmp = join(turnDir, `${name}.tmp`);
    await writeFile(tmp, content);
    await rename(tmp, join(turnDir, name));
  };
  return {
    root,
    workspace,
    turnId,
    turnDir,
    outside,
    writeAtomic,
    writeDone: (value) => writeAtomic('done.json', typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value)),
    writeReply: (content) => writeAtomic('reply.md', content),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** A valid ok receipt for the fixture's turn. */
export function okDone(turn: string): Record<string, unknown> {
  return { v: 1, turn, status: 'ok' };
}

/** Evil but well-formed receipt files in `dir` (what a planted link would point at). */
export async function plantEvilReceipt(dir: string, turn: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'done.json'), JSON.stringify({ v: 1, turn, status: 'ok' }));
  await writeFile(join(dir, 'reply.md'), 'EVIL');
}
