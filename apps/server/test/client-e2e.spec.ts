/**
 * @genswarms/client against the real server (express + socket.io on port 0, a fake engine): typed
 * calls resolve to the route's answer, refusals reject with the route's error code, and the typed
 * socket joins, acks and refuses a handshake without the token.
 */
import { ClientError, GenswarmsClient, connectSwarmSocket } from '@genswarms/client';
import type { SwarmSocket } from '@genswarms/client';
import { EngineError } from '@genswarms/engine';
import { fakeEngine } from './support/fake-engine';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

const token = 'client-e2e-token-0123456789abcdef';
const detail = {
  name: 'demo',
  status: 'running' as const,
  started_at: null,
  agent_count: 0,
  object_count: 0,
  agents: [],
  objects: [],
  topology: [],
  llm_usage: { requests: 0, refused: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
};
let dir: ReturnType<typeof tempDir>;
let s: TestServer;
let client: GenswarmsClient;

beforeAll(async () => {
  dir = tempDir('gs-client-e2e-');
  const engine = fakeEngine({
    getSwarm: async (name) => {
      if (name !== 'demo') throw new EngineError('swarm_not_found', 'No such swarm.');
      return detail;
    },
    hasSwarm: async (name) => name === 'demo',
    sendTask: async (_swarm, agent) => ({ status: 'sent', agent, id: 'item-1', queued: 1 }),
  });
  s = await startTestServer(testConfig(dir.path, { tokens: { fullToken: token } }), { engine });
  client = new GenswarmsClient({ baseUrl: s.url, token });
});
afterAll(async () => {
  await s.close();
  dir.cleanup();
});

it('resolves typed answers from the server', async () => {
  const swarm = await client.call('getSwarm', { params: { s: 'demo' } });
  expect(swarm.status).toBe('running');
  const sent = await client.call('sendTask', { params: { s: 'demo', a: 'worker' }, body: { task: 'go' } });
  expect(sent).toEqual({ status: 'sent', agent: 'worker', id: 'item-1', queued: 1 });
  const doc = await client.call('getOpenApi');
  expect(doc.openapi).toBe('3.1.0');
});

test.each([
  ['an unknown swarm', () => client.call('getSwarm', { params: { s: 'other' } }), 404, 'swarm_not_found'],
  ['an off-grammar name', () => client.call('getSwarm', { params: { s: '../x' } }), 404, 'swarm_not_found'],
  ['an empty task', () => client.call('sendTask', { params: { s: 'demo', a: 'w' }, body: { task: '' } }), 400, 'validation_failed'],
  ['no token', () => new GenswarmsClient({ baseUrl: s.url }).call('listSwarms'), 401, 'unauthorized'],
])('%s rejects with a ClientError carrying the code', async (_what, call, status, code) => {
  const err = await call().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ClientError);
  expect(err).toMatchObject({ status, code });
});

describe('the typed socket', () => {
  let socket: SwarmSocket | undefined;
  afterEach(() => socket?.close());

  it('joins a swarm and sends a task, typed acks', async () => {
    socket = await connectSwarmSocket({ baseUrl: s.url, token });
    await expect(socket.request('join', { swarm: 'demo' })).resolves.toEqual({ ok: true, swarm: 'demo' });
    const ack = await socket.request('send_task', { agent: 'worker', task: 'go' });
    expect(ack).toMatchObject({ ok: true, status: 'sent', queued: 1 });
  });

  it('a failure ack rejects with its code', async () => {
    socket = await connectSwarmSocket({ baseUrl: s.url, token });
    await expect(socket.request('join', { swarm: 'nope' })).rejects.toMatchObject({ code: 'swarm_not_found' });
  });

  test.each([
    ['no token', undefined],
    ['a wrong token', 'wrong-token'],
  ])('a handshake with %s rejects with unauthorized', async (_what, bad) => {
    await expect(connectSwarmSocket({ baseUrl: s.url, token: bad })).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
