import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTuiDelivery } from '@genswarms/runners';
import { formatDeliveryText } from '../src/lib/exec/delivery-text';
import { parseClientExec } from '../src/lib/exec/client-exec-config';
import { agentEnv, startAgent, stop, turnFile, waitFor, waitForDone, writeInboxItem } from './support/harness';
import type { RunningProcess } from './support/harness';

// genswarms-agent running a coding client once per turn (GENSWARMS_CLIENT_EXEC): a fake client process stands in.
const FAKE = join(__dirname, 'fixtures', 'fake-client.js');
const KEY = 'sk-gs-client-exec-test';

let ws: string;
let agent: RunningProcess | undefined;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'gs-agent-exec-'));
});
afterEach(async () => {
  await stop(agent);
  agent = undefined;
  await rm(ws, { recursive: true, force: true });
});

function execEnv(mode: string, extra: Record<string, string> = {}): Record<string, string> {
  return agentEnv(ws, {
    GENSWARMS_CLIENT_EXEC: JSON.stringify({ v: 1, client: 'codex', argv: [FAKE, 'exec', '--skip-git-repo-check'] }),
    GENSWARMS_LLM_API_KEY: KEY,
    FAKE_CLIENT_MODE: mode,
    FAKE_CLIENT_REPORT: join(ws, 'report.json'),
    ...extra,
  });
}

interface Report {
  argv: string[];
  pid: number;
  child?: number;
  keySet: boolean;
}
const report = async (): Promise<Report> =>
  JSON.parse(await waitFor(() => readFile(join(ws, 'report.json'), 'utf8').catch(() => undefined), 'report.json')) as Report;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // expected: the process is gone
  }
};

describe('the prompt', () => {
  it('is the delivery text the runners paste into panes, character for character', () => {
    const turn = { turnId: 't1', seq: 7, from: 'critic', content: 'line one\nline "two"', clientTurnsDir: '/workspace/.genswarms/turns' };
    expect(formatDeliveryText(turn)).toBe(formatTuiDelivery(turn));
  });
});

describe('GENSWARMS_CLIENT_EXEC', () => {
  test.each([
    ['not JSON', '{', 'is not JSON'],
    [
      'a relative executable',
      JSON.stringify({ v: 1, client: 'codex', argv: ['bin/codex'] }),
      'argv[0] must be an absolute path or a bare name',
    ],
    ['an unknown client', JSON.stringify({ v: 1, client: 'aider', argv: ['/x'] }), 'client'],
    ['an extra key', JSON.stringify({ v: 1, client: 'codex', argv: ['/x'], cwd: '/' }), 'cwd'],
    ['version 2', JSON.stringify({ v: 2, client: 'codex', argv: ['/x'] }), 'v'],
    ['no argv', JSON.stringify({ v: 1, client: 'codex', argv: [] }), 'argv'],
    ['a NUL word', JSON.stringify({ v: 1, client: 'codex', argv: ['/x', 'a\0b'] }), 'argv'],
    ['__proto__', '{"v":1,"client":"codex","argv":["/x"],"__proto__":{"argv":["/y"]}}', '__proto__'],
  ])('refuses %s', (_name, raw, reason) => {
    const parsed = parseClientExec(raw);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.reason).toContain(reason);
  });

  it('a bad value stops the agent at start (exit 2), naming the variable only', async () => {
    agent = startAgent(agentEnv(ws, { GENSWARMS_CLIENT_EXEC: JSON.stringify({ v: 1, client: 'codex', argv: ['./codex', KEY] }) }));
    expect(await agent.exited).toBe(2);
    expect(agent.output()).toContain('invalid GENSWARMS_CLIENT_EXEC');
    expect(agent.output()).not.toContain(KEY);
  });
});

describe('one turn', () => {
  it('the client writes its own receipt: the turn ends with it, the prompt is the last argv word, the key only in the env', async () => {
    agent = startAgent(execEnv('receipt'));
    await writeInboxItem(ws, { seq: 1, content: 'summarise notes.md', turn: 't1' });
    expect(await waitForDone(ws, 't1', agent)).toEqual({ v: 1, turn: 't1', status: 'ok' });
    expect(readFileSync(turnFile(ws, 't1', 'reply.md'), 'utf8')).toBe('fake reply for t1\n');
    const got = await report();
    expect(got.argv).toEqual([
      'exec',
      '--skip-git-repo-check',
      formatTuiDelivery({
        turnId: 't1',
        seq: 1,
        from: '_operator',
        content: 'summarise notes.md',
        clientTurnsDir: join(ws, '.genswarms', 'turns'),
      }),
    ]);
    expect(got.keySet).toBe(true);
    expect(got.argv.join(' ')).not.toContain(KEY);
    await waitFor(async () => agent?.output().includes('receipt written by the client'), 'the client-receipt notice');
  });

  it('the client only answers on stdout: that answer is the reply, its @name lines are sent', async () => {
    agent = startAgent(execEnv('stdout'));
    await writeInboxItem(ws, { seq: 1, content: 'x', turn: 't2' });
    expect(await waitForDone(ws, 't2', agent)).toEqual({ v: 1, turn: 't2', status: 'ok' });
    expect(readFileSync(turnFile(ws, 't2', 'reply.md'), 'utf8')).toBe('the answer for t2\n@critic: please check t2');
    const outbox = readdirSync(join(ws, '.outbox')).map((f) => JSON.parse(readFileSync(join(ws, '.outbox', f), 'utf8')) as unknown);
    expect(outbox).toEqual([{ to: 'critic', content: 'please check t2' }]);
  });

  it('a reply.md the client left without done.json is kept; the driver adds done.json', async () => {
    agent = startAgent(execEnv('reply-only'));
    await writeInboxItem(ws, { seq: 1, content: 'x', turn: 't3' });
    expect(await waitForDone(ws, 't3', agent)).toEqual({ v: 1, turn: 't3', status: 'ok' });
    expect(readFileSync(turnFile(ws, 't3', 'reply.md'), 'utf8')).toBe('reply file for t3\n');
  });

  it('a failing client: an error receipt naming the exit code and its last error line (no escapes)', async () => {
    agent = startAgent(execEnv('fail'));
    await writeInboxItem(ws, { seq: 1, content: 'x', turn: 't4' });
    expect(await waitForDone(ws, 't4', agent)).toEqual({
      v: 1,
      turn: 't4',
      status: 'error',
      error: 'codex exited with code 3: Error: stream disconnected before completion',
    });
    expect(agent.output()).toContain('client: Error: stream disconnected before completion');
  });

  it('the turn timeout ends a hanging client and everything in its process group', async () => {
    agent = startAgent(execEnv('hang-child', { GENSWARMS_TURN_TIMEOUT_MS: '1500' }));
    await writeInboxItem(ws, { seq: 1, content: 'x', turn: 't5' });
    const got = await report();
    expect(await waitForDone(ws, 't5', agent)).toEqual({
      v: 1,
      turn: 't5',
      status: 'error',
      error: 'codex did not finish within the turn timeout',
    });
    await waitFor(async () => !alive(got.pid) && !alive(got.child ?? 0), 'the client and its child to end');
  });

  it('the host ends the turn (writes done.json): the client gets a grace period, then its group is killed', async () => {
    agent = startAgent(execEnv('hang-child'));
    await writeInboxItem(ws, { seq: 1, content: 'x', turn: 't6' });
    const got = await report();
    const { writeFile } = await import('node:fs/promises');
    await writeFile(turnFile(ws, 't6', 'done.json'), JSON.stringify({ v: 1, turn: 't6', status: 'error', error: 'cancelled' }));
    await waitFor(async () => !alive(got.pid) && !alive(got.child ?? 0), 'the client and its child to end');
    expect(existsSync(turnFile(ws, 't6', 'reply.md'))).toBe(false);
  }, 20_000);

  it('SIGTERM to the agent kills the running client group and writes no receipt (redone after a restart)', async () => {
    agent = startAgent(execEnv('hang-child'));
    await writeInboxItem(ws, { seq: 1, content: 'x', turn: 't7' });
    const got = await report();
    expect(await stop(agent)).toBe(0);
    await waitFor(async () => !alive(got.pid) && !alive(got.child ?? 0), 'the client and its child to end');
    expect(existsSync(turnFile(ws, 't7', 'done.json'))).toBe(false);
  });

  it('a message too long for one argv word goes to message.md and the prompt points there', async () => {
    agent = startAgent(execEnv('receipt'));
    const content = 'z'.repeat(200 * 1024);
    await writeInboxItem(ws, { seq: 1, content, turn: 't8' });
    await waitForDone(ws, 't8', agent);
    const file = join(ws, '.genswarms', 'turns', 't8', 'message.md');
    expect(readFileSync(file, 'utf8')).toBe(content);
    const prompt = (await report()).argv.at(-1) ?? '';
    expect(prompt).toContain(`read it from ${join(ws, '.genswarms', 'turns', 't8')}/message.md`);
    expect(prompt.length).toBeLessThan(2048);
  });
});
