import { spawnSync } from 'node:child_process';
import { link, mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readTurnReceipt } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone } from './support/turn-fixture';

const MKFIFO = '/usr/bin/mkfifo';
const MKNOD = '/usr/bin/mknod';

function run(bin: string, args: readonly string[]): boolean {
  return spawnSync(bin, args, { shell: false, stdio: 'ignore' }).status === 0;
}

async function listenUnix(path: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, resolve);
  });
  return server;
}

describe('readTurnReceipt refuses receipts that are not regular files', () => {
  let fx: TurnFixture;
  let server: Server | undefined;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    await fx.cleanup();
  });

  const planters: Array<[string, (path: string) => Promise<void>]> = [
    ['a FIFO with no writer', async (p) => void expect(run(MKFIFO, ['-m', '0600', p])).toBe(true)],
    ['a directory', (p) => mkdir(p)],
    ['a unix socket', async (p) => void (server = await listenUnix(p))],
  ];

  describe.each(['done.json', 'reply.md'] as const)('as %s', (file) => {
    test.each(planters)('refuses %s as receipt_not_regular (without blocking)', async (_name, plant) => {
      if (file === 'reply.md') await fx.writeDone(okDone(fx.turnId));
      else await fx.writeReply('genuine');
      await plant(join(fx.turnDir, file));
      await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'refused', reason: 'receipt_not_regular', file });
    });

    it('refuses a hard link (nlink 2) as receipt_not_regular', async () => {
      if (file === 'reply.md') await fx.writeDone(okDone(fx.turnId));
      else await fx.writeReply('genuine');
      const outsideFile = join(fx.outside, file);
      await writeFile(outsideFile, file === 'done.json' ? JSON.stringify(okDone(fx.turnId)) : 'EVIL');
      await link(outsideFile, join(fx.turnDir, file));
      await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'refused', reason: 'receipt_not_regular', file });
    });
  });

  const canMknod = (() => {
    const probe = join('/tmp', `receipts-mknod-probe-${process.pid}`);
    const ok = run(MKNOD, [probe, 'c', '1', '5']);
    spawnSync('/bin/rm', ['-f', probe], { shell: false, stdio: 'ignore' });
    return ok;
  })();
  if (!canMknod) console.warn('SKIP: mknod of a character device is not permitted here; device-node case skipped');
  (canMknod ? it : it.skip)('refuses a character device (/dev/zero clone) as receipt_not_regular', async () => {
    await fx.writeReply('genuine');
    expect(run(MKNOD, [join(fx.turnDir, 'done.json'), 'c', '1', '5'])).toBe(true);
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_not_regular',
      file: 'done.json',
    });
  });

  test.each(['.genswarms', '.genswarms/turns'])('refuses a regular file planted as %s', async (component) => {
    const ws = join(fx.root, 'ws2');
    await mkdir(join(ws, component, '..'), { recursive: true });
    await writeFile(join(ws, component), 'not a dir');
    await expect(readTurnReceipt(ws, fx.turnId)).resolves.toEqual({ kind: 'refused', reason: 'receipt_not_regular', file: 'directory' });
  });
});
