import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { agentDiff, DIFF_MAX_BYTES, listAgentChanges, readAgentWork, type AgentWork } from '../../src/index';
import { AGENT, asAgent, cloneFor, makeGitWorld, SWARM, type GitWorld } from './git-world';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;

/** Names an agent may give its files (as bytes): each must be listed escaped and never break the host's reading. */
const HOSTILE_NAMES: [string, Buffer, string][] = [
  ['a newline', Buffer.from('a\nb.txt'), 'a\\x0ab.txt'],
  ['a leading dash', Buffer.from('-rf'), '-rf'],
  ['an option', Buffer.from('--output=x'), '--output=x'],
  ['bytes that are not UTF-8', Buffer.from([0x62, 0xff, 0xfe, 0x2e, 0x74]), 'b\\xff\\xfe.t'],
  ['a terminal escape', Buffer.from('\x1b[31mred'), '\\x1b[31mred'],
  ['a backslash', Buffer.from('back\\slash'), 'back\\\\slash'],
  ['UTF-8', Buffer.from('café.txt'), 'café.txt'],
];

d('git workspaces: hostile inputs from the agent clone', () => {
  let w: GitWorld;
  let work: AgentWork;
  beforeAll(async () => {
    w = makeGitWorld();
    await cloneFor(w);
    const script = HOSTILE_NAMES.map((_n, i) => `echo x > "./$(cat .n${i})"`).join(' && ');
    HOSTILE_NAMES.forEach(([, name], i) => writeFileSync(path.join(w.workspace, `.n${i}`), name));
    spawnSync('/usr/bin/chown', ['-R', '65532:65532', w.workspace]);
    asAgent(w.workspace, ['/bin/sh', '-c', script]);
    asAgent(w.workspace, ['/bin/sh', '-c', 'rm .n*']);
    // an enormous diff: 6 MiB of lines, over DIFF_MAX_BYTES
    asAgent(w.workspace, ['/bin/sh', '-c', 'yes "a line of an enormous diff" | head -c 6000000 > big.txt']);
    // past the in-memory limit: streamed into the host's hash-object, never held whole
    asAgent(w.workspace, ['/bin/sh', '-c', 'yes "a line of a streamed file" | head -c 12000000 > streamed.txt']);
    work = (await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace }))!;
  });
  afterAll(() => w.cleanup());

  test.each(HOSTILE_NAMES)('a file name with %s is listed escaped', async (_what, _name, shown) => {
    const changes = await listAgentChanges(work);
    expect(changes.files.map((f) => f.path)).toContain(shown);
  });

  test('an enormous diff is cut at DIFF_MAX_BYTES with a note', async () => {
    const diff = await agentDiff(work);
    expect(diff.truncated).toBe(true);
    expect(Buffer.byteLength(diff.text)).toBeLessThan(DIFF_MAX_BYTES + 200);
    expect(diff.text).toMatch(/\[genswarms: diff truncated at \d+ bytes\]\n$/);
  });

  test('a file past the in-memory limit is taken whole (streamed)', async () => {
    const changes = await listAgentChanges(work);
    expect(changes.files.find((f) => f.path === 'streamed.txt')).toEqual({
      path: 'streamed.txt',
      status: 'added',
      additions: Math.ceil(12_000_000 / 'a line of a streamed file\n'.length),
      deletions: 0,
    });
  });

  test('the unified diff quotes hostile names instead of printing them raw', async () => {
    const { text } = await agentDiff(work, { stat: true });
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('a\nb.txt');
  });
});
