/**
 * A TUI client is `idle` (agent_ready) only once it is ready for a task — its prompt up and its screen settled —
 * not when its pane started; a task sent right after the start then reaches it.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { eventsOf, waitEvent, type Harness } from './harness';
import { fakeTuiAgent, makeScreenHarness } from './screen-engine';

describe('a TUI client with screen rules becomes ready with its prompt', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.engine.stopSwarm('s').catch(() => undefined);
    await h?.cleanup();
  });

  it('is starting until its prompt is up, then idle; a task sent at once completes', async () => {
    h = await makeScreenHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [fakeTuiAgent('a', ['--prompt-after-ms', '1500'])] } });
    const events = await eventsOf(h.engine, 's');
    const at = (type: string): number => Date.parse(events.find((e) => e.event_type === type)?.timestamp ?? '');
    // the prompt comes 1.5 s after the start and must stay for settleMs (200 ms)
    expect(at('agent_ready') - at('agent_started')).toBeGreaterThanOrEqual(1500);
    expect((await h.engine.getAgent('s', 'a')).state).toBe('idle');
    await h.engine.sendTask('s', 'a', 'hello');
    const done = await waitEvent(h.engine, 's', (e) => e.event_type === 'turn_completed', 'turn_completed');
    const turn = String(done.metadata?.['turn']);
    const workspace = path.join(h.home, 'workspaces', 's', 'a');
    expect(existsSync(path.join(workspace, '.genswarms', 'turns', turn, 'done.json'))).toBe(true);
  });
});
