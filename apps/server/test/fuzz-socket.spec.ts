/**
 * Fuzz target `socket` (docs/reliability.md "Fuzzing"): socket.io events on `/swarm` from a real
 * socket.io-client to a real server on port 0 (real engine, mock agents): documented and unknown event
 * names, payloads mutated key by key from a good one, hostile values, extra arguments, binary, no payload.
 * Criteria per event: an ack always comes (no hang), it has `ok`, a refusal's `error` is a documented code,
 * the socket stays connected, and the server still answers `get_status` afterwards.
 */
import fc from 'fast-check';
import { expectDocumentedCode, hostileValue, mutatedConfig, replayFuzzRegressions, runFuzzTarget } from '@genswarms/tools';
import type { FuzzTarget } from '@genswarms/tools';
import request from 'supertest';
import { mockAgent, startEngineServer } from './support/engine-server';
import type { EngineServer } from './support/engine-server';
import { connectSwarm } from './support/swarm-socket';
import type { SwarmClient } from './support/swarm-socket';

const TOKEN = 'fuzz-socket-token-0123456789';
const ACK_WAIT_MS = 20_000;

const GOOD: Record<string, readonly Record<string, unknown>[]> = {
  join: [{ swarm: 'fz' }],
  send_task: [{ agent: 'a', task: 'hi' }],
  get_status: [{}],
  subscribe_logs: [{ agent: 'a' }, {}],
  unsubscribe_logs: [{ agent: 'a' }, {}],
  subscribe_events: [{ filters: { level: 'info', category: 'agent', event_type: 'turn_completed', agent: 'a' } }, {}],
  unsubscribe_events: [{}],
};
const EVENTS = Object.keys(GOOD);

interface SocketInput {
  readonly event: string;
  readonly args: readonly unknown[];
}

const payloadFor = (event: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...(GOOD[event] ?? [{}])) },
    { weight: 6, arbitrary: mutatedConfig(GOOD[event] ?? [{}]) },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  );

const input: fc.Arbitrary<SocketInput> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.constantFrom(...EVENTS).chain((event) =>
      fc.record({
        event: fc.constant(event),
        args: fc.oneof(fc.tuple(payloadFor(event)), fc.tuple(payloadFor(event), hostileValue), fc.constant([])),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      event: fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'connect', 'disconnect', 'error', 'newListener', 'JOIN', 'join '),
        fc.string({ maxLength: 20 }),
      ),
      args: fc.array(hostileValue, { maxLength: 2 }),
    }),
  },
);

let s: EngineServer;
let client: SwarmClient;

/** Socket.io refuses to emit these names from a client (reserved); the server never sees them. */
const RESERVED = new Set(['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener']);

async function ensureConnected(): Promise<void> {
  if (client?.socket.connected) return;
  client = await connectSwarm(s.url, { token: TOKEN });
}

const target: FuzzTarget<SocketInput> = {
  name: 'socket',
  arbitrary: input,
  async check({ event, args }) {
    await ensureConnected();
    if (RESERVED.has(event)) return;
    let disconnected = '';
    const onDisconnect = (reason: string): void => void (disconnected = reason);
    client.socket.once('disconnect', onDisconnect);
    try {
      const ack = (await client.socket.timeout(ACK_WAIT_MS).emitWithAck(event, ...args)) as unknown;
      if (ack === null || typeof ack !== 'object' || typeof (ack as { ok?: unknown }).ok !== 'boolean')
        throw new Error(`${event}: ack without ok: ${JSON.stringify(ack)?.slice(0, 200)}`);
      if ((ack as { ok: boolean }).ok === false) expectDocumentedCode((ack as { error?: unknown }).error, `${event} ack`);
      const status = (await client.socket.timeout(ACK_WAIT_MS).emitWithAck('get_status', {})) as { ok?: unknown };
      if (typeof status.ok !== 'boolean') throw new Error('get_status after the event answered without ok');
    } finally {
      client.socket.off('disconnect', onDisconnect);
    }
    if (disconnected !== '') throw new Error(`${event}: the server disconnected the socket (${disconnected})`);
  },
};

beforeAll(async () => {
  s = await startEngineServer({ tokens: { fullToken: TOKEN } });
  const res = await request(s.url)
    .post('/api/swarms')
    .set('authorization', `Bearer ${TOKEN}`)
    .send({ config: { name: 'fz', agents: [mockAgent('a'), mockAgent('b')], objects: [{ name: 'o', handler: 'echo' }] } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  await ensureConnected();
});
afterAll(async () => {
  client?.close();
  await s.close();
});

describe('fuzz: socket (socket.io events and acks on /swarm)', () => {
  it('acks a join (the fuzz inputs reach the handlers)', async () => {
    expect(await client.ask('join', { swarm: 'fz' })).toEqual({ ok: true, swarm: 'fz' });
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated events: an ack with ok every time, documented codes, no disconnect, no hang', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
