import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningProcess } from './support/harness';
import { agentEnv, startAgent, stop, turnFile, waitFor, waitForDone, writeInboxItem } from './support/harness';

type Plant = (inbox: string, outside: string) => Promise<void>;

const item = (seq: number, turn: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ from: '_operator', content: `hostile ${turn}`, seq, timestamp: '2024-01-01T00:00:00.000Z', turn, ...extra });

/** Each case plants one inbox entry at seq N; none may produce a receipt, and the agent must go on. */
const HOSTILE: Array<[string, number, string, RegExp, Plant]> = [
  [
    'a symlink to a valid item',
    1,
    'h-symlink',
    /0001__operator\.json: symlink/,
    async (inbox, outside) => {
      await writeFile(join(outside, 'item.json'), item(1, 'h-symlink'));
      await symlink(join(outside, 'item.json'), join(inbox, '0001__operator.json'));
    },
  ],
  [
    'a file over 4 MiB',
    2,
    'h-huge',
    /0002__operator\.json: too_large/,
    async (inbox) => {
      await writeFile(join(inbox, '0002__operator.json'), item(2, 'h-huge', { content: 'x'.repeat(5 * 1024 * 1024) }));
    },
  ],
  [
    'malformed JSON',
    3,
    'h-malformed',
    /0003__operator\.json: malformed JSON/,
    async (inbox) => {
      await writeFile(join(inbox, '0003__operator.json'), '{"from": "_operator", "content": ');
    },
  ],
  [
    'a FIFO',
    4,
    'h-fifo',
    /0004__operator\.json: not_regular/,
    async (inbox) => {
      const made = spawnSync('mkfifo', [join(inbox, '0004__operator.json')], { shell: false, stdio: 'ignore' });
      if (made.status !== 0) throw new Error('mkfifo failed');
    },
  ],
  [
    'a directory',
    5,
    'h-dir',
    /0005__operator\.json: not_regular/,
    async (inbox) => {
      await mkdir(join(inbox, '0005__operator.json'));
    },
  ],
  [
    'a turn id that escapes the turns dir',
    6,
    '../../escaped',
    /0006__operator\.json: malformed item \(turn: does not match the required pattern\)/,
    async (inbox) => {
      await writeFile(join(inbox, '0006__operator.json'), item(6, '../../escaped'));
    },
  ],
  [
    'an unknown key (__proto__)',
    7,
    'h-proto',
    /0007__operator\.json: malformed item \(__proto__: unknown key\)/,
    async (inbox) => {
      await writeFile(join(inbox, '0007__operator.json'), `{"__proto__":{"polluted":true},${item(7, 'h-proto').slice(1)}`);
    },
  ],
  [
    'a seq that disagrees with the file name',
    8,
    'h-seq',
    /0008__operator\.json: seq\/from disagree/,
    async (inbox) => {
      await writeFile(join(inbox, '0008__operator.json'), item(99, 'h-seq'));
    },
  ],
  [
    'invalid UTF-8',
    9,
    'h-utf8',
    /0009__operator\.json: malformed JSON/,
    async (inbox) => {
      await writeFile(
        join(inbox, '0009__operator.json'),
        Buffer.concat([Buffer.from(item(9, 'h-utf8').slice(0, -2)), Buffer.from([0xff, 0x22, 0x7d])]),
      );
    },
  ],
];

describe('genswarms-agent with hostile inbox files', () => {
  let dir = '';
  let ws = '';
  let agent: RunningProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-hostile-'));
    ws = join(dir, 'ws');
    const inbox = join(ws, '.inbox');
    const outside = join(dir, 'outside');
    await mkdir(inbox, { recursive: true, mode: 0o700 });
    await mkdir(outside);
    for (const [, , , , plant] of HOSTILE) await plant(inbox, outside);
    // Ask replies live in .inbox/replies/ and are never taken as items.
    await mkdir(join(inbox, 'replies'));
    await writeFile(join(inbox, 'replies', '0010__operator.json'), item(10, 'h-reply'));
    await writeFile(join(inbox, 'notes.txt'), 'not an item');
    await writeInboxItem(ws, { seq: 20, content: 'the valid one', turn: 'valid' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_MOCK_SCRIPT: '[]' }));
    await waitForDone(ws, 'valid', agent);
  });
  afterAll(async () => {
    await stop(agent);
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps running and answers the valid item after them', async () => {
    expect(agent?.child.exitCode).toBeNull();
    expect(await readFile(turnFile(ws, 'valid', 'reply.md'), 'utf8')).toBe('the valid one');
  });

  test.each(HOSTILE)('skips %s without a receipt', async (_name, _seq, turn, logLine) => {
    expect(agent?.output()).toMatch(logLine);
    await expect(readFile(turnFile(ws, turn, 'done.json'))).rejects.toThrow();
  });

  it('never writes outside the workspace for an escaping turn id', async () => {
    // turns/../../escaped would land in the workspace root (and one more level up would leave it).
    expect(await readdir(ws)).not.toContain('escaped');
    expect(await readdir(dir)).not.toContain('escaped');
  });

  it('ignores replies/ and files that are not items', async () => {
    await expect(readFile(turnFile(ws, 'h-reply', 'done.json'))).rejects.toThrow();
    expect(agent?.output()).not.toMatch(/notes\.txt|replies/);
  });
});

describe('genswarms-agent with an unsafe .inbox', () => {
  let dir = '';
  let agent: RunningProcess | undefined;
  afterEach(async () => {
    await stop(agent);
    agent = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('does not read an .inbox that is a symlink', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-inbox-link-'));
    const real = join(dir, 'real');
    await writeInboxItem(real, { seq: 1, content: 'through a link', turn: 'linked' });
    const ws = join(dir, 'ws');
    await mkdir(join(ws, '.genswarms', 'turns', 'linked'), { recursive: true });
    await symlink(join(real, '.inbox'), join(ws, '.inbox'));
    agent = startAgent(agentEnv(ws, { GENSWARMS_MOCK_SCRIPT: '[]' }));
    await waitFor(async () => agent?.output().includes('inbox ignored: .inbox is a symlink'), 'the symlinked-inbox notice');
    await expect(readFile(turnFile(ws, 'linked', 'done.json'))).rejects.toThrow();
  });

  it('refuses to write a receipt into a turn directory that is a symlink', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-turn-link-'));
    const ws = join(dir, 'ws');
    await writeInboxItem(ws, { seq: 1, content: 'first', turn: 'trap' });
    await rm(join(ws, '.genswarms', 'turns', 'trap'), { recursive: true });
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), join(ws, '.genswarms', 'turns', 'trap'));
    await writeInboxItem(ws, { seq: 2, content: 'second', turn: 'after' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_MOCK_SCRIPT: '[]' }));
    await waitForDone(ws, 'after', agent);
    expect(await readdir(join(dir, 'elsewhere'))).toEqual([]);
    expect(agent.output()).toMatch(/turn trap seq=1 from=_operator failed/);
  });
});
