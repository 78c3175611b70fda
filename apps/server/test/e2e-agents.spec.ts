import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildEndpointPolicy } from '@genswarms/security';
import { buildOnce, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';
import { connectSwarm } from './support/swarm-socket';

const ROOT = resolve(__dirname, '../../..');
const SCRIPT = [
  { match: 'review', response: 'critic says: looks good' },
  { match: 'essay', response: 'draft ready\n<<SWARM_MSG:TO=critic:START>>\nplease review the essay\n<<SWARM_MSG:END>>' },
];

let llm: MockLlm;
let s: EngineServer;
beforeAll(async () => {
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`agent build failed: ${built.output}`);
  llm = await startMockLlm({ script: SCRIPT });
  s = await startEngineServer(
    { endpointPolicy: buildEndpointPolicy({ llmEndpoint: `${llm.url}/v1` }) },
    { agentEntry: join(ROOT, 'apps/agent/dist/main.js') },
  );
}, 320_000);
afterAll(async () => {
  await s?.close();
  await llm?.close();
});

describe('two real genswarms-agents on the local backend (mock LLM)', () => {
  it('task → LLM turn → marker routed to the second agent → its turn; events in order on the socket', async () => {
    const config = {
      name: 'real',
      agents: [
        { name: 'writer', backend: { type: 'local' } },
        { name: 'critic', backend: { type: 'local' } },
      ],
      topology: [['writer', 'critic']],
    };
    await request(s.url).post('/api/swarms').send({ config }).expect(201);
    const c = await connectSwarm(s.url);
    try {
      await c.ask('join', { swarm: 'real' });
      await c.ask('subscribe_events', {});
      for (const a of ['writer', 'critic'])
        await waitFor(async () => (await request(s.url).get(`/api/swarms/real/agents/${a}`)).body.state === 'idle', `${a} idle`, {
          timeoutMs: 30_000,
        });
      await request(s.url).post('/api/swarms/real/agents/writer/task').send({ task: 'write an essay' }).expect(200);
      await waitFor(async () => c.pushes.some((p) => p.type === 'turn_completed' && p.payload['agent'] === 'critic'), 'critic turn', {
        timeoutMs: 60_000,
      });
      const seen = c.pushes
        .filter((p) => p.type === 'event')
        .map((p) => `${String(p.payload['event_type'])}:${String(p.payload['agent'])}`);
      const order = [
        'turn_started:writer',
        'turn_completed:writer',
        'message_routed:writer',
        'turn_started:critic',
        'turn_completed:critic',
      ];
      const idx = order.map((t) => seen.indexOf(t));
      expect(idx.every((i) => i >= 0)).toBe(true);
      expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    } finally {
      c.close();
    }
    const critic = (await request(s.url).get('/api/swarms/real/agents/critic/turns')).body.turns;
    expect(critic[0]).toMatchObject({ status: 'completed', from: 'writer', reply_preview: expect.stringContaining('looks good') });
    expect(llm.requests.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
