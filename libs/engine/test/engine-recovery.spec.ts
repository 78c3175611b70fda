import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventsOf, makeHarness, waitEvent, waitFor, type Harness } from './harness';

describe('recovery after a crash', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('a new Engine on the same home completes the in-flight turn once and duplicates no task', async () => {
    // The receipt comes 400 ms after delivery: the crash happens first.
    const config = {
      name: 'rec',
      agents: [{ name: 'a', backend: { type: 'mock', opts: { replies: ['answer {{content}}'], delay_ms: 400 } } }],
    };
    await h.engine.startSwarm({ config });
    await h.engine.sendTask('rec', 'a', 'first');
    await h.engine.sendTask('rec', 'a', 'second');
    const started = await waitEvent(h.engine, 'rec', (e) => e.event_type === 'turn_started', 'turn start');
    const turnId = String(started.metadata['turn']);
    await waitFor(async () => (await h.engine.store.getTurn(turnId))?.delivered, 'delivery');
    await h.engine.close(); // crash: no stop, store closed mid-turn

    h.engine = await h.open();
    await waitFor(
      async () => (await h.engine.listTurns('rec', 'a')).turns.filter((t) => t.status === 'completed').length >= 2,
      'both turns',
    );
    const turns = (await h.engine.listTurns('rec', 'a')).turns;
    expect(turns).toHaveLength(2);
    expect(turns.map((t) => t.status)).toEqual(['completed', 'completed']);
    expect(turns.find((t) => t.id === turnId)?.reply_preview).toBe('answer first');
    expect(new Set(turns.map((t) => t.item_id)).size).toBe(2);
    const completions = (await eventsOf(h.engine, 'rec')).filter((e) => e.event_type === 'turn_completed' && e.metadata['turn'] === turnId);
    expect(completions).toHaveLength(1);
    const inbox = fs.readdirSync(path.join(h.home, 'workspaces', 'rec', 'a', '.inbox')).sort();
    expect(inbox).toEqual(['0001__operator.json', '0002__operator.json']);
    expect(await h.engine.store.listInbox('rec', 'a')).toEqual([]);
  });

  it('keeps needs_attention across a restart', async () => {
    const config = { name: 'na', agents: [{ name: 'a', backend: { type: 'mock', opts: { delay_ms: 86_400_000 } } }] };
    await h.engine.startSwarm({ config });
    await h.engine.sendTask('na', 'a', 'x');
    const started = await waitEvent(h.engine, 'na', (e) => e.event_type === 'turn_started', 'turn start');
    const dir = path.join(h.home, 'workspaces', 'na', 'a', '.genswarms', 'turns', String(started.metadata['turn']));
    await waitFor(async () => fs.existsSync(dir), 'turn dir');
    fs.writeFileSync(path.join(dir, 'reply.md'), 'r');
    fs.writeFileSync(path.join(dir, 'done.json'), JSON.stringify({ v: 1, turn: 'someone-else', status: 'ok' }));
    await waitEvent(h.engine, 'na', (e) => e.event_type === 'agent_needs_attention', 'needs attention');
    await h.engine.close();
    h.engine = await h.open();
    const agent = await h.engine.getAgent('na', 'a');
    expect(agent).toMatchObject({ state: 'needs_attention', needs_attention: { reason: 'receipt_turn_mismatch' } });
  });
});
