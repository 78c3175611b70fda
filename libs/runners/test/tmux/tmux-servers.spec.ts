/**
 * The tmux runner spreads windows over several tmux servers (TMUX_PANES_PER_SERVER each; 2 here),
 * records the server in the session description, finds a window again after a restart (recorded, or by a
 * look through the servers a previous run left), never places a second window of a live agent on another
 * server, removes stale sockets, and leaves no server behind at shutdown. Real tmux throughout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle, SessionDescription } from '../../src/lib/port';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { isProcessAlive } from '../../src/lib/process/process-tree';
import { tmuxAttachArgv } from '../../src/lib/tmux/attach-argv';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { tmuxSocketIndexOf, tmuxSocketPath } from '../../src/lib/tmux/tmux-server';
import { describeIfBinaries, makeTestEnv, tmuxSpec, waitFor, type TmuxTestEnv } from './tmux-support';

const TMUX = '/usr/bin/tmux';

/** Does the tmux server on `socket` hold window `=sw:=<agent>` (asked with the tmux CLI, not our client)? */
function holds(socket: string, agent: string): boolean {
  const r = spawnSync(TMUX, ['-S', socket, 'has-session', '-t', `=sw:=${agent}`], { shell: false, stdio: 'ignore' });
  return r.status === 0;
}

function serverPidOn(socket: string): number | undefined {
  const r = spawnSync(TMUX, ['-S', socket, 'display-message', '-p', '#{pid}'], { shell: false, encoding: 'utf8' });
  const pid = Number(r.stdout.trim());
  return r.status === 0 && Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
}

function sockets(home: string): string[] {
  return readdirSync(path.join(home, 'tmux'))
    .filter((n) => /\.sock$/.test(n))
    .sort();
}

it.each([
  ['tmux.sock', 0],
  ['tmux-1.sock', 1],
  ['tmux-63.sock', 63],
  ['tmux-64.sock', undefined],
  ['tmux-0.sock', undefined],
  ['tmux-01.sock', undefined],
  ['tmux-100.sock', undefined],
  ['tmux--1.sock', undefined],
  ['tmux.sock.bak', undefined],
  ['../tmux.sock', undefined],
  ['tmux-1.sock\n', undefined],
  ['xtmux.sock', undefined],
] as const)('socket name %j stands for server %j', (name, index) => {
  expect(tmuxSocketIndexOf(name)).toBe(index);
  if (index !== undefined) expect(path.basename(tmuxSocketPath('/h', index))).toBe(name);
});

describeIfBinaries(['tmux', 'xargs'])('tmux runner: several tmux servers', () => {
  let env: TmuxTestEnv;
  const pids = new Set<number>();

  beforeAll(async () => {
    env = await makeTestEnv('servers');
  });
  afterAll(async () => {
    for (const pid of pids) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
    await env.cleanup();
  });

  async function start(runner: ReturnType<typeof createTmuxRunner>, agent: string): Promise<RunnerHandle> {
    const ws = path.join(env.workspace, agent);
    await fsp.mkdir(ws, { recursive: true });
    const spec = tmuxSpec(env, agent, ['/bin/sleep', '600'], { workspace: ws });
    return runner.start(runner.plan(spec, env.ctx), env.ctx);
  }

  it('places 2 windows per server, records the server, reuses a freed place, re-attaches, refuses a duplicate, shuts every server down', async () => {
    const first = createTmuxRunner({ panesPerServer: 2 });
    const handles = new Map<string, RunnerHandle>();
    for (const agent of ['a0', 'a1', 'a2', 'a3', 'a4']) handles.set(agent, await start(first, agent));
    const where = (agent: string): number | undefined => handles.get(agent)?.describe().tmuxServer;
    expect(['a0', 'a1', 'a2', 'a3', 'a4'].map(where)).toEqual([0, 0, 1, 1, 2]);
    expect(sockets(env.home)).toEqual(['tmux-1.sock', 'tmux-2.sock', 'tmux.sock']);
    for (const agent of ['a0', 'a1', 'a2', 'a3', 'a4']) {
      const socket = tmuxSocketPath(env.home, where(agent) ?? -1);
      expect(holds(socket, agent)).toBe(true);
      // and on no other server
      for (const other of [0, 1, 2].filter((i) => i !== where(agent))) expect(holds(tmuxSocketPath(env.home, other), agent)).toBe(false);
    }
    for (const i of [0, 1, 2]) pids.add(serverPidOn(tmuxSocketPath(env.home, i)) ?? 0);
    expect(first.servers(env.ctx).placements()).toEqual(
      new Map([
        [0, 2],
        [1, 2],
        [2, 1],
      ]),
    );

    // a stopped agent frees its place: the next window goes to server 0 again
    await handles.get('a1')?.stop({ graceMs: 0 });
    expect(holds(tmuxSocketPath(env.home, 0), 'a1')).toBe(false);
    handles.set('a5', await start(first, 'a5'));
    expect(where('a5')).toBe(0);

    // the orchestrator goes away, the panes stay (detach); a new runner re-attaches each on its server
    const descriptions = new Map<string, SessionDescription>([...handles].filter(([a]) => a !== 'a1').map(([a, h]) => [a, h.describe()]));
    await first.close('detach');
    const second = createTmuxRunner({ panesPerServer: 2 });
    const again = await second.reattach?.(descriptions.get('a4') as SessionDescription, env.ctx);
    expect(again?.describe().tmuxServer).toBe(2);
    expect(await again?.health()).toBe('running');
    // a description without the server (written before servers were numbered): found by looking through them
    const { tmuxServer: _dropped, ...unnumbered } = descriptions.get('a3') as SessionDescription;
    const found = await second.reattach?.(unnumbered, env.ctx);
    expect(found?.describe().tmuxServer).toBe(1);

    // a3 is live on server 1 and not yet adopted by `second` as a placement of its own: a new start of a2
    // (also live on server 1) must find that window and refuse, never put a second a2 on server 0
    const duplicate = await start(second, 'a2').then(
      () => 'started',
      (err: unknown) => (err instanceof RunnerError ? err.code : String(err)),
    );
    expect(duplicate).toBe('start_failed');
    expect(holds(tmuxSocketPath(env.home, 0), 'a2')).toBe(false);
    expect(holds(tmuxSocketPath(env.home, 1), 'a2')).toBe(true);

    // attach argv names the agent's server
    expect(tmuxAttachArgv(env.home, 'sw', 'a4', false, TMUX, 2)).toEqual([
      TMUX,
      '-S',
      path.join(env.home, 'tmux', 'tmux-2.sock'),
      'attach-session',
      '-r',
      '-t',
      '=sw:=a4',
    ]);

    // shutdown: every server it opened is killed, whatever it holds
    await second.close('shutdown');
    for (const pid of pids) await waitFor(() => (isProcessAlive(pid) ? undefined : true), `tmux server ${pid} gone`);
  }, 60_000);

  it('removes the socket of a server that died and does not start a server for it', async () => {
    const runner = createTmuxRunner({ panesPerServer: 1 });
    await start(runner, 'b0');
    await start(runner, 'b1');
    const pid1 = serverPidOn(tmuxSocketPath(env.home, 1));
    expect(pid1).toBeDefined();
    pids.add(pid1 ?? 0);
    pids.add(serverPidOn(tmuxSocketPath(env.home, 0)) ?? 0);
    await runner.close('detach');
    process.kill(pid1 ?? 0, 'SIGKILL');
    await waitFor(() => (isProcessAlive(pid1 ?? 0) ? undefined : true), 'killed server gone');
    const stale = tmuxSocketPath(env.home, 1);
    expect(lstatSync(stale).isSocket()).toBe(true); // tmux leaves its socket behind when killed

    const next = createTmuxRunner({ panesPerServer: 1 });
    // server 0 (holding b0) is joined; the dead server's socket is removed at the first use, no server starts there
    const b2 = await start(next, 'b2');
    expect(b2.describe().tmuxServer).toBe(0); // b0 was not re-attached, so it holds no place: server 0 has room
    expect(existsSync(stale)).toBe(false);
    expect(serverPidOn(stale)).toBeUndefined();
    await next.close('shutdown');
    expect(serverPidOn(tmuxSocketPath(env.home, 0))).toBeUndefined();
    expect(serverPidOn(tmuxSocketPath(env.home, 1))).toBeUndefined();
  }, 60_000);
});
