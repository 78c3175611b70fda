import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readTurnReceipt } from '../src/index';
import { FIXTURES } from './support/child';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone, plantEvilReceipt } from './support/turn-fixture';

const STRACE = ['/usr/bin/strace', '/bin/strace'].find((p) => existsSync(p));
const MARK = /genswarms-marker-(start|end)/;

type Planter = (fx: TurnFixture) => Promise<void>;

/** Refusal scenarios; each leaves something tempting outside the turn directory. */
const SCENARIOS: Array<[string, Planter, string]> = [
  ['done.json -> /etc/passwd', (fx) => symlink('/etc/passwd', join(fx.turnDir, 'done.json')), 'receipt_symlink'],
  ['done.json -> an evil receipt', (fx) => symlink(join(fx.outside, 'done.json'), join(fx.turnDir, 'done.json')), 'receipt_symlink'],
  [
    'reply.md -> an evil reply',
    async (fx) => {
      await fx.writeDone(okDone(fx.turnId));
      await rm(join(fx.turnDir, 'reply.md'), { force: true });
      await symlink(join(fx.outside, 'reply.md'), join(fx.turnDir, 'reply.md'));
    },
    'receipt_symlink',
  ],
  [
    'done.json hard-linked to an evil receipt',
    (fx) => link(join(fx.outside, 'done.json'), join(fx.turnDir, 'done.json')),
    'receipt_not_regular',
  ],
  [
    'the turn directory -> an evil directory',
    async (fx) => {
      await rename(fx.turnDir, `${fx.turnDir}.aside`);
      await symlink(fx.outside, fx.turnDir);
    },
    'receipt_symlink',
  ],
  [
    '.genswarms -> an evil tree',
    async (fx) => {
      await plantEvilReceipt(join(fx.outside, 'tree', 'turns', fx.turnId), fx.turnId);
      await rename(join(fx.workspace, '.genswarms'), join(fx.root, 'aside'));
      await symlink(join(fx.outside, 'tree'), join(fx.workspace, '.genswarms'));
    },
    'receipt_symlink',
  ],
];

/** Runs the reader once in a child under `strace -f -e trace=openat`; returns the result and the opens between the markers. */
async function traceRead(strace: string, fx: TurnFixture): Promise<{ result: unknown; opens: string[] }> {
  const log = join(fx.root, 'strace.log');
  const args = [
    '-f',
    '-qq',
    '-e',
    'trace=openat,open',
    '-o',
    log,
    process.execPath,
    join(FIXTURES, 'read-once.cjs'),
    'turn',
    fx.workspace,
    fx.turnId,
  ];
  const child = spawn(strace, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`traced reader failed (${String(code)}): ${err}`);
  const lines = (await readFile(log, 'utf8')).split('\n');
  const start = lines.findIndex((l) => MARK.test(l) && l.includes('start'));
  const end = lines.findIndex((l) => MARK.test(l) && l.includes('end'));
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return { result: JSON.parse(out.trim()), opens: lines.slice(start + 1, end).filter((l) => /open(at)?\(/.test(l)) };
}

const strace = STRACE;
if (strace === undefined)
  console.warn(
    'SKIP: strace is not installed; the "nothing outside the turn directory is opened" spec is skipped (fd-leak spec still runs)',
  );
(strace === undefined ? describe.skip : describe)('after a refusal nothing outside the turn directory was opened (strace)', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await plantEvilReceipt(fx.outside, fx.turnId);
    await writeFile(join(fx.turnDir, 'reply.md'), 'genuine');
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  test.each(SCENARIOS)('%s: refused, and every open is inside the turn directory', async (_name, plant, reason) => {
    await plant(fx);
    const { result, opens } = await traceRead(strace as string, fx);
    expect({ result, outsideOpens: opens.filter((line) => !line.includes(`"${fx.turnDir}/`)) }).toEqual({
      result: expect.objectContaining({ kind: 'refused', reason }),
      outsideOpens: [],
    });
  });

  it('opens a genuine receipt with O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC and nothing else', async () => {
    await fx.writeDone(okDone(fx.turnId));
    const { result, opens } = await traceRead(strace as string, fx);
    expect(result).toEqual({ kind: 'ok', status: 'ok', reply: 'genuine' });
    expect(opens).toHaveLength(2);
    for (const line of opens) expect(line).toMatch(/O_RDONLY\|O_NONBLOCK\|O_NOFOLLOW\|O_CLOEXEC/);
  });
});

describe('refusals leak no descriptors', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await plantEvilReceipt(fx.outside, fx.turnId);
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  test.each(SCENARIOS)('%s: /proc/self/fd is unchanged after 50 refusals', async (_name, plant, reason) => {
    await plant(fx);
    const before = (await readdir('/proc/self/fd')).length;
    for (let i = 0; i < 50; i++) await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toMatchObject({ kind: 'refused', reason });
    expect((await readdir('/proc/self/fd')).length).toBeLessThanOrEqual(before);
  });
});
