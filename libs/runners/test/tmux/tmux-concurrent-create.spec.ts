/**
 * Tmux walks every pane on each pass of its event loop, so every round trip of a launch costs
 * O(N) tmux CPU. Window creations used to queue one after another (three round trips each, one global
 * chain); creations of different agents now overlap and share tmux's passes, while one agent's
 * creations stay serialised and a new swarm's session is created exactly once.
 */
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import { tmuxConst, tmuxPath } from '../../src/lib/tmux/tmux-words';
import { describeIfBinaries, makeTestEnv, type TmuxTestEnv } from './tmux-support';

const sleeper = [tmuxPath('/bin/sleep'), tmuxConst('600')];

describeIfBinaries(['tmux'])('tmux: concurrent window creation', () => {
  let env: TmuxTestEnv;
  let server: TmuxServer;
  let verbs: string[];
  beforeAll(async () => {
    env = await makeTestEnv('concurrent');
    server = await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' });
    const command = server.command.bind(server);
    jest.spyOn(server, 'command').mockImplementation((words) => {
      verbs.push(words.map((w) => w.text).join(' '));
      return command(words);
    });
  });
  beforeEach(() => {
    verbs = [];
  });
  afterAll(async () => {
    await server.kill();
    await env.cleanup();
  });

  it('creates the windows of a new swarm at once: one new-session, every query sent before any creation', async () => {
    const names = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'];
    const panes = await Promise.all(names.map((n) => server.createWindow('cc', n, env.workspace, sleeper)));
    const sent = [...verbs];
    expect(new Set(panes.map((p) => p.paneId)).size).toBe(names.length);
    for (const n of names) expect(await server.findPane('cc', n)).toMatchObject({ session: 'cc', window: n, dead: false });
    expect(sent.filter((v) => v.startsWith('new-session'))).toHaveLength(1);
    expect(sent.filter((v) => v.startsWith('new-window'))).toHaveLength(names.length - 1);
    // before: a global chain sent the next agent's query only after the previous agent's window existed
    const firstCreation = sent.findIndex((v) => v.startsWith('new-session') || v.startsWith('new-window'));
    expect(sent.slice(0, firstCreation).filter((v) => v.startsWith('display-message'))).toHaveLength(names.length);
  });

  it('still refuses a second start of a running window when both starts race', async () => {
    const results = await Promise.allSettled([
      server.createWindow('cc', 'twin', env.workspace, sleeper),
      server.createWindow('cc', 'twin', env.workspace, sleeper),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'start_failed' });
  });
});
