import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockLlmProcess, RunningProcess } from './support/harness';
import { agentEnv, startAgent, startMockLlm, stop, turnFile, waitForDone, writeInboxItem } from './support/harness';

/** A date in the past as an HTTP-date (IMF-fixdate): "retry now". */
const PAST_HTTP_DATE = new Date(Date.now() - 60_000).toUTCString();

const SCRIPT = [
  { match: 'busy-seconds', response: 'rate limited', status: 429, times: 1, retry_after: '0' },
  { match: 'busy-date', response: 'rate limited', status: 429, times: 1, retry_after: PAST_HTTP_DATE },
  { match: 'flaky', response: 'bad gateway', status: 502, times: 2 },
  { match: 'always-503', response: 'down', status: 503 },
  { match: 'wait-an-hour', response: 'come back later', status: 429, retry_after: '3600' },
  { match: 'beyond-turn', response: 'come back later', status: 429, retry_after: '2' },
  { match: 'bad-request', response: 'no such model', status: 400 },
  { match: '', response: 'ANSWER {{content}}' },
];

describe('genswarms-agent retries 429 and 5xx from the LLM', () => {
  let dir = '';
  let llm: MockLlmProcess | undefined;
  let agent: RunningProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-retry-'));
    await writeFile(join(dir, 'script.json'), JSON.stringify(SCRIPT));
    llm = await startMockLlm(['--script', join(dir, 'script.json')]);
  });
  afterEach(async () => {
    await stop(agent);
    agent = undefined;
  });
  afterAll(async () => {
    await stop(llm);
    await rm(dir, { recursive: true, force: true });
  });

  async function requestCount(content: string): Promise<number> {
    const all = (await llm?.requests()) ?? [];
    return all.filter((r) => r.body.messages.some((m) => m.role === 'user' && m.content === content)).length;
  }

  async function answer(name: string, content: string, extraEnv: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const ws = join(dir, name);
    await writeInboxItem(ws, { seq: 1, content, turn: `turn-${name}` });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm?.url}/v1`, ...extraEnv }));
    const done = await waitForDone(ws, `turn-${name}`, agent);
    if (done['status'] === 'ok') done['reply'] = await readFile(turnFile(ws, `turn-${name}`, 'reply.md'), 'utf8');
    return done;
  }

  test.each([
    ['429 with Retry-After in seconds, then 200', 'seconds', 'busy-seconds', 2],
    ['429 with Retry-After as an HTTP-date, then 200', 'date', 'busy-date', 2],
    ['502 twice (no Retry-After: exponential backoff), then 200', 'flaky', 'flaky', 3],
  ])('answers after %s', async (_name, ws, content, requests) => {
    expect(await answer(ws, content)).toMatchObject({ status: 'ok', reply: `ANSWER ${content}` });
    expect(await requestCount(content)).toBe(requests);
  });

  it('gives up after the attempt bound on a persistent 503: an error receipt that says how often it tried', async () => {
    const done = await answer('always', 'always-503');
    expect(done).toMatchObject({ status: 'error' });
    expect(String(done['error'])).toMatch(/^llm request failed: HTTP 503: \{.*"down".*\} \(gave up after 4 attempts: the attempt limit\)$/);
    expect(await requestCount('always-503')).toBe(4);
  });

  it('gives up at once when Retry-After is longer than the retry bound', async () => {
    const done = await answer('hour', 'wait-an-hour');
    expect(String(done['error'])).toMatch(
      /^llm request failed: HTTP 429: \{.*"come back later".*\} \(gave up after 1 attempt: Retry-After 3600 s exceeds 60 s\)$/,
    );
    expect(await requestCount('wait-an-hour')).toBe(1);
  });

  it("gives up when the wait would outlast the turn's remaining time (GENSWARMS_TURN_TIMEOUT_MS)", async () => {
    const done = await answer('turn', 'beyond-turn', { GENSWARMS_TURN_TIMEOUT_MS: '1000' });
    expect(String(done['error'])).toMatch(
      /^llm request failed: HTTP 429: \{.*"come back later".*\} \(gave up after 1 attempt: the turn ends first\)$/,
    );
    expect(await requestCount('beyond-turn')).toBe(1);
  });

  it('does not retry a 400: the request itself is wrong', async () => {
    const done = await answer('bad', 'bad-request');
    expect(String(done['error'])).toBe('llm request failed: HTTP 400: {"error":{"message":"no such model","type":"mock_error"}}');
    expect(await requestCount('bad-request')).toBe(1);
  });
});
