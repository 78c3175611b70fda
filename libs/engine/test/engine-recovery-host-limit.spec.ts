/**
 * Recovery at `Engine.open()` charges the host's limits as a start does. A swarm whose agents the host can no
 * longer hold after the restart is not recovered — never half-started: it is `error`, its agents `stopped`, and
 * one `swarm_start_failed` event names the limit, its value, the need and the fix; the swarms that fit are
 * recovered. The host is this machine's, with fs.inotify.max_user_watches made small (a mock agent holds 1).
 */
import { readHostLimits, type HostReadings } from '@genswarms/runners';
import * as fs from 'node:fs';
import { liveSleeps, uniqueMarks } from './escape-engine';
import { eventsOf, makeHarness, mockAgent, waitFor, type Harness } from './harness';

let room = 1000;
let ptyRoom = 1000;
/**
 * This host with fs.inotify.max_user_watches at what is in use + 64 (the headroom kept) + `room`, and kernel.pty.max
 * at what is in use + 16 (kept) + `ptyRoom`.
 */
function hostWithWatchRoom(): HostReadings {
  const real = readHostLimits();
  return {
    ...real,
    inotifyWatches: { limit: real.inotifyWatches.used + 64 + room, used: real.inotifyWatches.used },
    ptys: { limit: real.ptys.used + 16 + ptyRoom, used: real.ptys.used },
  };
}

const counted = (name: string, count: number): Record<string, unknown> => ({ ...mockAgent(name), count });

let h: Harness;
afterEach(async () => {
  await h.cleanup();
});

const statuses = async (): Promise<Record<string, string>> =>
  Object.fromEntries((await h.engine.listSwarms()).swarms.map((s) => [s.name, s.status]));

describe('recovery against the host limits', () => {
  test('a swarm past a limit after the restart is not recovered, with the limit and the fix; the others are', async () => {
    room = 1000;
    h = await makeHarness({ readHostLimits: hostWithWatchRoom });
    await h.engine.startSwarm({ config: { name: 'big', agents: [counted('w', 30)] } });
    await h.engine.startSwarm({ config: { name: 'fits', agents: [counted('w', 2)] } });
    await h.engine.close(); // a crash: the swarms stay `running` in the store

    room = 10; // after the restart the host holds 10 more watches: `fits` (2) but not `big` (30)
    h.engine = await h.open();
    expect(await statuses()).toEqual({ big: 'error', fits: 'running' });
    expect((await h.engine.getSwarm('fits')).agents.map((a) => a.state)).toEqual(['idle', 'idle']);
    const big = await h.engine.getSwarm('big');
    expect(new Set(big.agents.map((a) => a.state))).toEqual(new Set(['stopped'])); // nothing half-started
    const failed = (await eventsOf(h.engine, 'big')).filter((e) => e.event_type === 'swarm_start_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.metadata).toMatchObject({
      error: 'host_limit',
      limit: 'fs.inotify.max_user_watches',
      value: expect.any(Number),
      need: expect.any(Number),
      fix: expect.stringMatching(/^sysctl -w fs\.inotify\.max_user_watches=\d+$/),
    });
    expect(failed[0]?.message).toMatch(/^Swarm big was not recovered after the server restart: host_limit: Restarting 30 agent\(s\)/);
    expect(failed[0]?.message).toContain('then: genswarms restart big.');

    room = 1000; // the operator raised the limit
    await h.engine.restartSwarm('big');
    expect(await statuses()).toEqual({ big: 'running', fits: 'running' });
    expect((await h.engine.getSwarm('big')).agents).toHaveLength(30);
  });

  test('a swarm that fits is recovered with every agent, and the claim is released afterwards', async () => {
    room = 1000;
    h = await makeHarness({ readHostLimits: hostWithWatchRoom });
    await h.engine.startSwarm({ config: { name: 's', agents: [counted('w', 5)] } });
    await h.engine.close();
    room = 5;
    h.engine = await h.open();
    expect(await statuses()).toEqual({ s: 'running' });
    // the 5 recovered agents hold their watches now (in `used`): a claim left held would charge them twice (5 + 1 > 3)
    room = 3;
    await h.engine.startSwarm({ config: { name: 't', agents: [mockAgent('one')] } });
    expect(await statuses()).toEqual({ s: 'running', t: 'running' });
  });

  const withTmux = fs.existsSync('/usr/bin/tmux') ? test : test.skip;
  const pane = (mark: string): Record<string, unknown> => ({
    name: 'pane',
    backend: { type: 'tmux', runner: 'none' },
    client: { command: ['/usr/bin/sleep', mark] },
    count: 3,
  });

  withTmux('panes that outlived the server are re-attached without charging their ptys again', async () => {
    room = 1000;
    ptyRoom = 1000;
    h = await makeHarness({ readHostLimits: hostWithWatchRoom, tmux: true });
    const [mark] = uniqueMarks();
    await h.engine.startSwarm({ config: { name: 'mixed', agents: [pane(mark), counted('w', 2)] } });
    await waitFor(() => liveSleeps(mark).length === 3, "the panes' sleeps to run");
    const before = liveSleeps(mark).sort();
    await h.engine.detach(); // the panes outlive the server
    ptyRoom = 0; // the 3 live panes hold their ptys (in use): charging them again as new panes would refuse
    h.engine = await h.open();
    expect(await statuses()).toEqual({ mixed: 'running' });
    expect(liveSleeps(mark).sort()).toEqual(before); // re-attached, not restarted
    expect((await eventsOf(h.engine, 'mixed')).filter((e) => e.event_type === 'swarm_start_failed')).toEqual([]);
  });

  withTmux('charges the watches the new server holds for re-attached panes, and stops the panes of a swarm it refuses', async () => {
    room = 1000;
    ptyRoom = 1000;
    h = await makeHarness({ readHostLimits: hostWithWatchRoom, tmux: true });
    const [mark] = uniqueMarks();
    await h.engine.startSwarm({ config: { name: 'mixed', agents: [pane(mark), counted('w', 2)] } });
    await waitFor(() => liveSleeps(mark).length === 3, "the panes' sleeps to run");
    await h.engine.detach();
    room = 7; // the 2 mock agents (1 watch each) fit alone; with the panes' receipt watches (2 each) they do not
    h.engine = await h.open();
    expect(await statuses()).toEqual({ mixed: 'error' });
    await waitFor(() => liveSleeps(mark).length === 0, 'the panes to be stopped (never left running unowned)');
    const failed = (await eventsOf(h.engine, 'mixed')).filter((e) => e.event_type === 'swarm_start_failed');
    expect(failed.map((e) => e.message)).toEqual([
      expect.stringContaining('host_limit: Restarting 2 agent(s) and re-attaching 3 would take'),
    ]);
  });
});
