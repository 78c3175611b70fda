/**
 * The crash window of a cancelled turn: the engine writes the host receipt FIRST and only then makes the
 * turn final in the store. A crash between the two (simulated: receipt written, store untouched, engine
 * closed) must leave a turn that recovery settles as `cancelled` — once, with its event — and never
 * delivers again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readHostReceipt, TURN_CANCELLED_ERROR, writeHostReceipt } from '../src/lib/agents/host-receipt';
import type { Engine } from '../src/lib/swarms/engine';
import { eventsOf, makeHarness, waitEvent, waitFor, type Harness } from './harness';

const SLOW = { name: 'w', backend: { type: 'mock', opts: { replies: ['answer {{content}}'], delay_ms: 86_400_000 } } };

async function cancelledEvents(engine: Engine, swarm: string, turn: string): Promise<number> {
  return (await eventsOf(engine, swarm)).filter(
    (e) => e.event_type === 'turn_failed' && e.metadata['turn'] === turn && e.metadata['status'] === 'cancelled',
  ).length;
}

describe('a cancelled turn across a crash', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(() => h.cleanup());

  async function inFlight(swarm: string): Promise<string> {
    await h.engine.startSwarm({ config: { name: swarm, agents: [SLOW] } });
    await h.engine.sendTask(swarm, 'w', 'first');
    const started = await waitEvent(h.engine, swarm, (e) => e.event_type === 'turn_started', 'turn start');
    const turn = String(started.metadata['turn']);
    await waitFor(async () => (await h.engine.store.getTurn(turn))?.delivered, 'delivery');
    return turn;
  }

  it('crash after the host receipt, before the store update: recovery settles the turn cancelled, once, and never redelivers it', async () => {
    const turn = await inFlight('cw');
    const ws = path.join(h.home, 'workspaces', 'cw', 'w');
    await h.engine.close(); // the crash: nothing stopped, the store still says running
    expect(await writeHostReceipt(ws, turn, TURN_CANCELLED_ERROR)).toBe(true);
    const inbox = fs.readdirSync(path.join(ws, '.inbox')).sort();

    h.engine = await h.open();
    expect(await h.engine.store.getTurn(turn)).toMatchObject({ status: 'cancelled' });
    expect(await cancelledEvents(h.engine, 'cw', turn)).toBe(1);
    expect(await h.engine.store.listOpenTurns('cw')).toEqual([]);
    await waitFor(async () => (await h.engine.getAgent('cw', 'w')).state === 'idle', 'w idle');
    const forTurn = (await eventsOf(h.engine, 'cw')).filter((e) => e.metadata['turn'] === turn).map((e) => e.event_type);
    expect(forTurn).toEqual(['turn_started', 'turn_failed']); // nothing re-started, completed or rejected
    expect(fs.readdirSync(path.join(ws, '.inbox')).sort()).toEqual(inbox); // no inbox file written again
    expect(await readHostReceipt(ws, turn)).toBe(TURN_CANCELLED_ERROR);

    // A second recovery finds the turn final: still exactly one cancellation.
    await h.engine.close();
    h.engine = await h.open();
    expect(await cancelledEvents(h.engine, 'cw', turn)).toBe(1);
    await h.engine.sendTask('cw', 'w', 'second');
    await waitFor(
      async () => (await h.engine.store.listTurns('cw', 'w', 10)).find((t) => t.content === 'second'),
      'the next task dispatched',
    );
  });

  it('without the host receipt the same crash resumes the turn (same id), as before', async () => {
    const turn = await inFlight('cr');
    await h.engine.close();
    h.engine = await h.open();
    await waitFor(async () => (await h.engine.getAgent('cr', 'w')).turn === turn, 'turn resumed');
    expect((await h.engine.store.getTurn(turn))?.status).toBe('running');
    expect(await cancelledEvents(h.engine, 'cr', turn)).toBe(0);
  });

  it('restartAgent mid-turn: receipt on disk, turn cancelled once with one event', async () => {
    const turn = await inFlight('ra');
    await h.engine.restartAgent('ra', 'w');
    const ws = path.join(h.home, 'workspaces', 'ra', 'w');
    expect(await readHostReceipt(ws, turn)).toBe(TURN_CANCELLED_ERROR);
    expect((await h.engine.store.getTurn(turn))?.status).toBe('cancelled');
    expect(await cancelledEvents(h.engine, 'ra', turn)).toBe(1);
    await h.engine.close();
    h.engine = await h.open();
    expect(await cancelledEvents(h.engine, 'ra', turn)).toBe(1);
  });
});
