import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockLlmProcess, RunningProcess } from './support/harness';
import { agentEnv, recordedCredential, startAgent, startMockLlm, stop, turnFile, waitForDone, writeInboxItem } from './support/harness';

const SCRIPT = [
  { match: 'plan', response: 'PLAN for {{content}}' },
  {
    match: 'route',
    response: [
      'Routing now.',
      '@critic: please review',
      '@stranger: not in my topology',
      '@web-bot:   fetch it  ',
      '<<SWARM_MSG:TO=critic:START>>',
      '@web-bot: inside a block, not a line message',
      '<<SWARM_MSG:END>>',
      '<<SWARM_MSG:BROADCAST:START>>all hands<<SWARM_MSG:END>>',
    ].join('\n'),
  },
  { match: 'explode', response: 'upstream exploded', status: 500 },
];

describe('genswarms-agent against the mock LLM', () => {
  let dir = '';
  let llm: MockLlmProcess | undefined;
  let agent: RunningProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-llm-'));
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

  const workspace = (name: string): string => join(dir, name);

  async function requestsFor(content: string): Promise<Awaited<ReturnType<MockLlmProcess['requests']>>> {
    const all = (await llm?.requests()) ?? [];
    return all.filter((r) => r.body.messages.some((m) => m.role === 'user' && m.content.includes(content)));
  }

  it('answers a task: reply.md holds the scripted answer, done.json is ok, no Authorization without a key', async () => {
    const ws = workspace('basic');
    await writeInboxItem(ws, { seq: 1, content: 'plan the trip', turn: 'turn-basic' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm?.url}/v1`, GENSWARMS_MODEL: 'gpt-test' }));
    expect(await waitForDone(ws, 'turn-basic', agent)).toEqual({ v: 1, turn: 'turn-basic', status: 'ok' });
    expect(await readFile(turnFile(ws, 'turn-basic', 'reply.md'), 'utf8')).toBe('PLAN for plan the trip');
    const [req] = await requestsFor('plan the trip');
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers['authorization']).toBeUndefined();
    expect(req?.body.model).toBe('gpt-test');
    expect(req?.body.messages[0]?.role).toBe('system');
    expect(req?.body.messages[0]?.content).toContain('"writer"');
    expect(req?.body.messages[0]?.content).toContain('critic, web-bot');
  });

  it('sends Authorization: Bearer <key> when a key is set, and never logs the key', async () => {
    const ws = workspace('keyed');
    await writeInboxItem(ws, { seq: 1, content: 'plan with key', turn: 'turn-key' });
    const key = 'sk-secret-test-key-123';
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm?.url}/v1/chat/completions`, GENSWARMS_LLM_API_KEY: key }));
    await waitForDone(ws, 'turn-key', agent);
    const [req] = await requestsFor('plan with key');
    expect(req?.headers['authorization']).toBe(recordedCredential(`Bearer ${key}`));
    expect(req?.body.model).toBeUndefined();
    await stop(agent);
    expect(agent.output()).not.toContain(key);
  });

  it('sends GENSWARMS_LLM_UPSTREAM_HOST as the Host header, to the bare forwarder address', async () => {
    const ws = workspace('host');
    await writeInboxItem(ws, { seq: 1, content: 'plan via forwarder', turn: 'turn-host' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm?.url}`, GENSWARMS_LLM_UPSTREAM_HOST: 'llm.internal.example:8443' }));
    await waitForDone(ws, 'turn-host', agent);
    const [req] = await requestsFor('plan via forwarder');
    expect(req?.headers['host']).toBe('llm.internal.example:8443');
    expect(req?.path).toBe('/v1/chat/completions');
  });

  it('keeps markers in reply.md and turns @name lines for topology targets into outbox files', async () => {
    const ws = workspace('route');
    await writeInboxItem(ws, { seq: 1, from: 'critic', content: 'route this', turn: 'turn-route' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm?.url}/v1` }));
    await waitForDone(ws, 'turn-route', agent);
    const reply = await readFile(turnFile(ws, 'turn-route', 'reply.md'), 'utf8');
    expect(reply).toContain('<<SWARM_MSG:TO=critic:START>>');
    expect(reply).toContain('<<SWARM_MSG:BROADCAST:START>>all hands<<SWARM_MSG:END>>');
    const files = (await readdir(join(ws, '.outbox'))).sort();
    expect(files.every((f) => /^\d{15}-\d+-\d{6}\.json$/.test(f))).toBe(true);
    const messages = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(ws, '.outbox', f), 'utf8')) as unknown));
    expect(messages).toEqual([
      { to: 'critic', content: 'please review' },
      { to: 'web-bot', content: 'fetch it' },
    ]);
    const [req] = await requestsFor('route this');
    expect(req?.body.messages[1]?.content).toBe('Message from critic:\n\nroute this');
  });

  it('writes an error receipt when the LLM answers an HTTP error', async () => {
    const ws = workspace('http-error');
    await writeInboxItem(ws, { seq: 1, content: 'explode please', turn: 'turn-500' });
    agent = startAgent(agentEnv(ws, { GENSWARMS_LLM_ENDPOINT: `${llm?.url}/v1` }));
    const done = await waitForDone(ws, 'turn-500', agent);
    expect(done).toMatchObject({ v: 1, turn: 'turn-500', status: 'error' });
    expect(String(done['error'])).toMatch(/^llm request failed: HTTP 500/);
    await expect(readFile(turnFile(ws, 'turn-500', 'reply.md'))).rejects.toThrow();
  });
});
