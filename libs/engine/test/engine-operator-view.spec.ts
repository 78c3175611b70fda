/**
 * The fields the operator view (`genswarms status` / `watch`) needs: when the current turn started, and how
 * many agents of each swarm are in each state (docs/rest-api.md, status shapes).
 */
import { makeHarness, mockAgent, waitEvent, waitFor, type Harness } from './harness';

describe('status fields of the operator view', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('an agent in a turn reports turn_started_at (the turn row start); none after the turn', async () => {
    const slow = { name: 'slow', backend: { type: 'mock', opts: { replies: ['done'], delay_ms: 1500 } } };
    await h.engine.startSwarm({ config: { name: 'ov', agents: [slow, mockAgent('b')] } });
    await waitFor(async () => (await h.engine.getAgent('ov', 'slow')).state === 'idle', 'slow idle');
    await h.engine.sendTask('ov', 'slow', 'work');
    const busy = await waitFor(async () => {
      const a = await h.engine.getAgent('ov', 'slow');
      return a.turn !== null ? a : undefined;
    }, 'a current turn');
    const turns = await h.engine.listTurns('ov', 'slow', 5);
    expect(busy.turn_started_at).toBe(turns.turns.find((t) => t.id === busy.turn)?.started_at);
    expect(Number.isNaN(Date.parse(String(busy.turn_started_at)))).toBe(false);
    await waitEvent(h.engine, 'ov', (e) => e.event_type === 'turn_completed' && e.agent === 'slow', 'turn completed');
    await waitFor(async () => (await h.engine.getAgent('ov', 'slow')).turn === null, 'turn cleared');
    expect((await h.engine.getAgent('ov', 'slow')).turn_started_at).toBeNull();
  });

  it('the swarm list counts agents by state, for a running and for a stopped swarm', async () => {
    await h.engine.startSwarm({ config: { name: 'cnt', agents: [mockAgent('a'), mockAgent('b'), mockAgent('c')] } });
    await waitFor(async () => (await h.engine.listAgents('cnt')).agents.every((a) => a.state === 'idle'), 'all idle');
    const running = (await h.engine.listSwarms()).swarms.find((s) => s.name === 'cnt');
    expect({ ...running?.agents_by_state }).toEqual({ idle: 3 });
    await h.engine.stopSwarm('cnt');
    const stopped = (await h.engine.listSwarms()).swarms.find((s) => s.name === 'cnt');
    const total = Object.values(stopped?.agents_by_state ?? {}).reduce((n, v) => n + v, 0);
    expect([stopped?.status, total]).toEqual(['stopped', 3]);
  });
});
