/**
 * The tmux server answered a full `list-panes -a` on every window creation, every pane stop and
 * every 500 ms poll (2,002 lines, 47 ms at 1,000 panes), so a launch was O(N²) and pastes queued behind
 * it. Creation, state queries and stop are targeted queries now, and deaths arrive as control-mode
 * notifications (`refresh-client -B`), so none of them lists every pane.
 */
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import type { PaneDeath } from '../../src/lib/tmux/pane-state';
import { tmuxConst, tmuxPath, type TmuxWord } from '../../src/lib/tmux/tmux-words';
import { describeIfBinaries, makeTestEnv, type TmuxTestEnv } from './tmux-support';
import { waitFor } from '@genswarms/test-kit';

const sh = (script: string): TmuxWord[] => [tmuxPath('/bin/sh'), tmuxConst('-c'), tmuxConst(script)];

describeIfBinaries(['tmux'])('tmux: no full pane listing per window, stop or poll', () => {
  let env: TmuxTestEnv;
  let server: TmuxServer;
  let verbs: string[];
  beforeAll(async () => {
    env = await makeTestEnv('nolist');
    server = await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' });
    verbs = [];
    const command = server.command.bind(server);
    jest.spyOn(server, 'command').mockImplementation((words) => {
      verbs.push(words.map((w) => w.text).join(' '));
      return command(words);
    });
  });
  afterAll(async () => {
    await server.kill();
    await env.cleanup();
  });

  it('creates, watches, reports a death and a removal, and stops panes without list-panes', async () => {
    const panes = [];
    for (let i = 0; i < 5; i++)
      panes.push(await server.createWindow('nl', `w${i}`, env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]));
    const crasher = await server.createWindow('nl', 'crasher', env.workspace, sh('exit'));
    const seen = new Map<string, PaneDeath | null>();
    for (const p of [...panes, crasher]) server.watchPane(p.paneId, (state) => seen.set(p.paneId, state ?? null));
    // a death, from the subscription (not a listing); its status may still be empty when tmux has not
    // reaped the process yet (the handle then reads the zombie, docs/runners.md)
    expect(await waitFor(() => seen.get(crasher.paneId), 'the crash')).toMatchObject({ dead: true, signal: null });
    expect([0, null]).toContain(seen.get(crasher.paneId)?.exitCode);
    expect(await server.paneState(panes[0]?.paneId ?? '')).toMatchObject({ session: 'nl', window: 'w0', dead: false });
    expect(await server.findPane('nl', 'w1')).toMatchObject({ paneId: panes[1]?.paneId });
    expect(await server.findPane('nl', 'nothere')).toBeUndefined();
    // a removal: the window-close notification
    await server.killWindow(panes[2]?.paneId);
    const removed = panes[2]?.paneId ?? '';
    await waitFor(() => (seen.has(removed) ? true : undefined), 'the removal');
    expect(seen.get(removed)).toBeNull();
    expect(await server.paneState(removed)).toBeUndefined();
    // a dead window is replaced by a new start of the same agent
    const again = await server.createWindow('nl', 'crasher', env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]);
    expect(again.paneId).not.toBe(crasher.paneId);
    expect(await server.hasAgentWindows()).toBe(true);
    expect(verbs.filter((v) => v.startsWith('list-panes'))).toEqual([]);
    expect(verbs.some((v) => v.startsWith('display-message -p -t'))).toBe(true);
  });
});
