/**
 * `GET /api/swarms` lists running swarms from their runtime (it parsed every stored config — and
 * resolved its secrets — on every request): the stored config of a running swarm is not read, a stopped one's is.
 */
import { SqliteStore } from '../src/lib/store/sqlite-store';
import { makeHarness, mockAgent, waitEvent, waitFor, type Harness } from './harness';

describe('listSwarms reads no stored config of a running swarm', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await h.cleanup();
  });

  it('summarises a running swarm from its runtime and a stopped one from the store', async () => {
    await h.engine.startSwarm({ config: { name: 'up', agents: [mockAgent('a'), mockAgent('b')] } });
    await h.engine.startSwarm({ config: { name: 'down', agents: [mockAgent('c')] } });
    await waitFor(async () => (await h.engine.listAgents('up')).agents.every((a) => a.state === 'idle'), 'up idle');
    await h.engine.stopSwarm('down');
    const full = jest.spyOn(SqliteStore.prototype, 'listSwarms');
    const one = jest.spyOn(SqliteStore.prototype, 'getSwarm');
    const { swarms } = await h.engine.listSwarms();
    expect(full).not.toHaveBeenCalled();
    expect(one.mock.calls.map((c) => c[0])).toEqual(['down']);
    expect(swarms.map((s) => [s.name, s.status, s.agent_count, s.object_count])).toEqual([
      ['down', 'stopped', 1, 0],
      ['up', 'running', 2, 0],
    ]);
    expect({ ...swarms[1]?.agents_by_state }).toEqual({ idle: 2 });
    expect(swarms[1]?.started_at).toEqual(expect.any(String));
  });

  it('counts the agents of a running swarm by state once per change, not once per request', async () => {
    const slow = { name: 'slow', backend: { type: 'mock', opts: { replies: ['done'], delay_ms: 800 } } };
    await h.engine.startSwarm({ config: { name: 'cnt', agents: [slow, mockAgent('b')] } });
    await waitFor(async () => (await h.engine.listAgents('cnt')).agents.every((a) => a.state === 'idle'), 'cnt idle');
    const byState = async (): Promise<Readonly<Record<string, number>> | undefined> =>
      (await h.engine.listSwarms()).swarms.find((s) => s.name === 'cnt')?.agents_by_state;
    const first = await byState();
    expect({ ...first }).toEqual({ idle: 2 });
    expect(await byState()).toBe(first); // nothing changed: the same counts, not a recount
    await h.engine.sendTask('cnt', 'slow', 'work');
    await waitFor(async () => ((await byState())?.['busy'] === 1 ? true : undefined), 'slow busy in the list');
    expect({ ...(await byState()) }).toEqual({ idle: 1, busy: 1 });
    await waitEvent(h.engine, 'cnt', (e) => e.event_type === 'turn_completed' && e.agent === 'slow', 'turn completed');
    await waitFor(async () => ((await byState())?.['idle'] === 2 ? true : undefined), 'both idle again');
  });
});
