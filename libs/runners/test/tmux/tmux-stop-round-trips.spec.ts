/**
 * A tmux stop asked tmux to describe the pane (display-message) before killing its process, one of
 * the stop's two round trips, each queued behind every other stop on that tmux server. The pane's process is
 * now recognised from /proc (still a live child of the tmux server, started at the tick recorded when the
 * handle was made), and tmux is asked only when that fails. A pid that is not the pane's is never signalled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { SessionDescription } from '../../src/lib/port';
import { isProcessAlive } from '../../src/lib/process/process-tree';
import { TmuxHandle } from '../../src/lib/tmux/tmux-handle';
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import { tmuxConst, tmuxPath } from '../../src/lib/tmux/tmux-words';
import { describeIfBinaries, makeTestEnv, type TmuxTestEnv } from './tmux-support';
import { waitFor } from '@genswarms/test-kit';

describeIfBinaries(['tmux'])('tmux stop: the pane process from /proc, tmux asked only when unsure', () => {
  let env: TmuxTestEnv;
  let server: TmuxServer;
  let verbs: string[] = [];
  const strangers: ChildProcess[] = [];

  beforeAll(async () => {
    env = await makeTestEnv('stoprt');
    server = await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' });
    const command = server.command.bind(server);
    jest.spyOn(server, 'command').mockImplementation((words) => {
      verbs.push(words.map((w) => w.text).join(' '));
      return command(words);
    });
  });
  afterAll(async () => {
    for (const c of strangers) c.kill('SIGKILL');
    await server.kill();
    await env.cleanup();
  });

  async function handleFor(
    agent: string,
    panePid?: (real: number) => number,
  ): Promise<{ handle: TmuxHandle; panePid: number; realPid: number }> {
    const pane = await server.createWindow('rt', agent, env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]);
    const pid = panePid === undefined ? pane.panePid : panePid(pane.panePid);
    const description: SessionDescription = {
      sessionId: `rt-${agent}`,
      backend: 'tmux',
      network: 'host',
      client: 'sleep',
      pid,
      envNames: [],
      workspace: env.workspace,
      stateDir: env.home,
      notices: [],
    };
    const handle = new TmuxHandle({
      server,
      description,
      paneId: pane.paneId,
      panePid: pid,
      envFile: path.join(env.home, `${agent}.env`),
      manifest: { dir: path.join(env.home, 'no-manifests') },
    });
    verbs = []; // from here on: the stop's commands only
    return { handle, panePid: pid, realPid: pane.panePid };
  }

  it('stops a live pane with one tmux command (kill-window), its process killed', async () => {
    const { handle, panePid } = await handleFor('live');
    expect(isProcessAlive(panePid)).toBe(true);
    await handle.stop({ graceMs: 1000 });
    expect(verbs.map((v) => v.split(' ')[0])).toEqual(['kill-window']);
    expect(isProcessAlive(panePid)).toBe(false);
  });

  it.each([
    ['a live process that is not a child of the tmux server (a reused pid)', 'stranger'],
    ['a pid that does not exist', 'nopid'],
  ])('never signals %s: tmux is asked, the window still goes', async (_what, kind) => {
    let strangerPid = 0;
    if (kind === 'stranger') {
      const child = spawn('/bin/sleep', ['600'], { stdio: 'ignore' });
      strangers.push(child);
      strangerPid = child.pid ?? 0;
      await waitFor(() => isProcessAlive(strangerPid), 'the stranger');
    }
    const { handle, realPid } = await handleFor(kind, () => (kind === 'stranger' ? strangerPid : 0x3ffffff));
    await handle.stop({ graceMs: 1000 });
    expect(verbs.map((v) => v.split(' ')[0])).toEqual(['display-message', 'kill-window']);
    if (kind === 'stranger') expect(isProcessAlive(strangerPid)).toBe(true);
    // kill-window ended the real pane (tmux hangs up its pty)
    await waitFor(() => !isProcessAlive(realPid), 'the real pane process to end');
    expect(await server.paneState((await server.findPane('rt', kind))?.paneId ?? '%999999')).toBeUndefined();
  });

  it("asks tmux when the pane process already exited (its exit status is tmux's to tell)", async () => {
    const { handle, realPid } = await handleFor('exited');
    process.kill(realPid, 'SIGKILL');
    await waitFor(() => !isProcessAlive(realPid), 'the pane to die');
    await handle.stop({ graceMs: 1000 });
    expect(verbs.map((v) => v.split(' ')[0])).toEqual(['display-message', 'kill-window']);
  });
});
