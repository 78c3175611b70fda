import { io as ioClient } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { UNAUTHORIZED_BODY } from '@genswarms/security';
import type { SwarmService } from '@genswarms/engine';
import { fakeEngine } from './support/fake-engine';
import { trySocket } from './support/clients';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

const F = 'sock-full';
const C = 'sock-config';
const dir = tempDir('gs-socket-');
let server: TestServer;
let joinable: TestServer;
const engine: SwarmService = fakeEngine({
  listSwarms: async () => ({ swarms: [] }),
  hasSwarm: async (name) => name === 'alpha' || name === 'beta',
});

beforeAll(async () => {
  server = await startTestServer(testConfig(dir.path, { tokens: { fullToken: F, configToken: C } }));
  joinable = await startTestServer(testConfig(dir.path, { tokens: { fullToken: F } }), { engine });
});
afterAll(async () => {
  await server.close();
  await joinable.close();
  dir.cleanup();
});

describe('handshake token sources (first present wins, no fall-through)', () => {
  test.each<[string, Record<string, unknown>, boolean]>([
    ['auth.token', { auth: { token: F } }, true],
    ['?token=', { query: { token: F } }, true],
    ['Authorization: Bearer', { extraHeaders: { Authorization: `Bearer ${F}` } }, true],
    ['wrong auth.token then right query', { auth: { token: 'nope' }, query: { token: F } }, false],
    ['wrong auth.token then right header', { auth: { token: 'nope' }, extraHeaders: { Authorization: `Bearer ${F}` } }, false],
    ['wrong query then right header', { query: { token: 'nope' }, extraHeaders: { Authorization: `Bearer ${F}` } }, false],
    ['non-string auth.token then right query', { auth: { token: 123 }, query: { token: F } }, false],
    ['empty auth.token', { auth: { token: '' } }, false],
    ['lower-case bearer header', { extraHeaders: { Authorization: `bearer ${F}` } }, false],
    ['the config token never opens a socket', { auth: { token: C } }, false],
    ['no token at all', {}, false],
  ])('%s → connected=%s', async (_label, opts, ok) => {
    const res = await trySocket(server.url, opts);
    if (ok) expect(res).toMatchObject({ connected: true });
    else expect(res).toEqual({ connected: false, message: 'unauthorized', data: UNAUTHORIZED_BODY });
  });

  it('guards the main namespace "/" too', async () => {
    expect(await trySocket(server.url, {}, '/')).toMatchObject({ connected: false, message: 'unauthorized' });
  });

  it('records socket denials as auth_denied with transport socket', async () => {
    await trySocket(server.url, { auth: { token: 'bad' } });
    const ev = server.events.events.find((e) => e.event_type === 'auth_denied' && e.metadata['transport'] === 'socket');
    expect(ev).toMatchObject({ level: 'warning', category: 'system', swarm: null, agent: null });
    expect(ev?.metadata).toMatchObject({ peer: expect.any(String), method: 'CONNECT', route: expect.any(String), reason: 'unauthorized' });
    expect(JSON.stringify(ev)).not.toContain('bad');
  });
});

describe('handshake Origin', () => {
  test.each<[string, boolean]>([
    ['http://localhost:3000', true],
    ['http://localhost.evil.com', false],
    ['https://evil.example', false],
  ])('Origin %s → connected=%s', async (origin, ok) => {
    const res = await trySocket(server.url, { auth: { token: F }, extraHeaders: { Origin: origin } });
    if (ok) expect(res.connected).toBe(true);
    else expect(res).toMatchObject({ connected: false, message: 'origin_not_allowed', data: { error: 'origin_not_allowed' } });
  });
});

function connect(url: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = ioClient(`${url}/swarm`, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: F } });
    s.on('connect', () => resolve(s));
    s.on('connect_error', reject);
  });
}

describe('/swarm events', () => {
  let socket: Socket;
  afterEach(() => socket?.close());

  test.each(['send_task', 'get_status', 'subscribe_logs', 'unsubscribe_logs', 'subscribe_events', 'unsubscribe_events'])(
    '%s before join acks not_joined',
    async (event) => {
      socket = await connect(server.url);
      const ack = (await socket.timeout(5000).emitWithAck(event, {})) as Record<string, unknown>;
      expect(ack).toMatchObject({ ok: false, error: 'not_joined', message: expect.any(String) });
    },
  );

  test.each([[{ swarm: 'alpha' }], [{ swarm: '../x' }], [{ swarm: 'alpha', extra: 1 }], ['alpha'], [null]])(
    'join %j without an engine acks swarm_not_found',
    async (payload) => {
      socket = await connect(server.url);
      expect(await socket.timeout(5000).emitWithAck('join', payload)).toMatchObject({ ok: false, error: 'swarm_not_found' });
    },
  );

  it('joins a swarm the engine knows, and a second join moves the socket', async () => {
    socket = await connect(joinable.url);
    expect(await socket.timeout(5000).emitWithAck('join', { swarm: 'alpha' })).toEqual({ ok: true, swarm: 'alpha' });
    expect(await socket.timeout(5000).emitWithAck('join', { swarm: 'beta' })).toEqual({ ok: true, swarm: 'beta' });
    expect(await socket.timeout(5000).emitWithAck('join', { swarm: 'gamma' })).toMatchObject({ ok: false, error: 'swarm_not_found' });
    const ack = (await socket.timeout(5000).emitWithAck('get_status', {})) as Record<string, unknown>;
    expect(ack['error']).not.toBe('not_joined');
  });
});
