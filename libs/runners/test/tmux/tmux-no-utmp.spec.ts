/**
 * Tmux records every pane in utmp through libutempter — a fork of the tmux server and an exec of the setgid
 * helper per pane created and per pane destroyed, most of the CPU of starting and stopping 1,000 panes. genswarms'
 * tmux servers preload the no-utmp shim of @genswarms/procctl; a pane never inherits the preload.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { NO_UTMP_CHILD_FD, NO_UTMP_LIBRARY_PATH, NO_UTMP_PRELOAD, noUtmpLibrary } from '@genswarms/procctl';
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import { tmuxConst, tmuxPath } from '../../src/lib/tmux/tmux-words';
import { describeIfBinaries, makeTestEnv, type TmuxTestEnv } from './tmux-support';
import { waitFor } from '@genswarms/test-kit';

const TMUX = '/usr/bin/tmux';
const STRACE = '/usr/bin/strace';
const canTrace = existsSync(STRACE) && process.geteuid?.() === 0;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The programs `pid` and its children exec while `work` runs (strace -f on the live process). */
async function execsDuring(dir: string, pid: number, work: () => Promise<void>): Promise<string> {
  const log = path.join(dir, `strace-${pid}.log`);
  const tracer = spawn(STRACE, ['-f', '-qq', '-e', 'trace=execve', '-o', log, '-p', String(pid)], { stdio: 'ignore' });
  // attached once the kernel names strace as the tracer (a fixed wait was too short on a loaded box)
  const traced = (): boolean => new RegExp(`^TracerPid:\\s+${tracer.pid ?? -1}$`, 'm').test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  await waitFor(traced, 'strace to attach', { timeoutMs: 10_000, intervalMs: 10 });
  await work();
  await sleep(300); // the last pane's teardown
  tracer.kill('SIGINT');
  await new Promise((resolve) => tracer.once('exit', resolve));
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  rmSync(log, { force: true });
  return text;
}

/** Waits (up to 10 s) until the pane process runs `program`; before its exec it is a fork of the server. */
async function paneExeced(pid: number, program: string): Promise<void> {
  const execed = (): boolean => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(`${program}\0`);
  await waitFor(execed, `the pane to exec ${program}`, { timeoutMs: 10_000, intervalMs: 10 });
}

// A checkout below a group-writable or sticky directory (e.g. /tmp) may not preload the shim: the rule itself, not a defect.
const shim = noUtmpLibrary();
if (shim.kind !== 'ok') console.warn(`SKIPPING the no-utmp tmux spec: this checkout's shim is refused (${shim.reason})`);
const describeIfShim = shim.kind === 'ok' ? describeIfBinaries(['tmux']) : describe.skip;

describeIfShim('tmux servers run without utmp records', () => {
  let env: TmuxTestEnv;
  let server: TmuxServer;
  beforeAll(async () => {
    env = await makeTestEnv('noutmp');
    server = await TmuxServer.open({ home: env.home, tmux: TMUX });
  });
  afterAll(async () => {
    await server.kill();
    await env.cleanup();
  });

  it('preloads the shim into the tmux server through the descriptor it checked, and no pane inherits either', async () => {
    const pid = server.serverPid ?? 0;
    expect(readFileSync(`/proc/${pid}/maps`, 'utf8')).toContain(NO_UTMP_LIBRARY_PATH);
    // the loader was named the descriptor, never the path (which whoever writes an ancestor could re-point)
    const serverEnv = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(serverEnv.filter((e) => e.startsWith('LD_PRELOAD='))).toEqual([`LD_PRELOAD=${NO_UTMP_PRELOAD}`]);
    expect(readlinkSync(`/proc/${pid}/fd/${NO_UTMP_CHILD_FD}`)).toBe(NO_UTMP_LIBRARY_PATH);
    expect(statSync(`/proc/${pid}/fd/${NO_UTMP_CHILD_FD}`).ino).toBe(statSync(NO_UTMP_LIBRARY_PATH).ino);
    const pane = await server.createWindow('nu', 'env', env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]);
    // until the pane has exec'd its program, /proc shows the forked server's environment
    await paneExeced(pane.panePid, '/bin/sleep');
    const environ = readFileSync(`/proc/${pane.panePid}/environ`, 'utf8').split('\0');
    expect(environ.filter((e) => e.startsWith('LD_PRELOAD='))).toEqual([]);
    expect(readdirSync(`/proc/${pane.panePid}/fd`).sort()).toEqual(['0', '1', '2']); // tmux closes the rest for a pane
    expect(environ.some((e) => e.startsWith('DOCKER_CONFIG='))).toBe(true); // the global environment still reaches it
    await server.killWindow(pane.paneId);
  });

  (canTrace ? it : it.skip)('creates and destroys panes without running the utmp helper (a bare tmux server does)', async () => {
    // the control: tmux as installed, same work, same tracing — proves the trace sees the helper on this host
    const bare = path.join(env.home, 'bare.sock');
    spawnSync(TMUX, ['-S', bare, '-f', '/dev/null', 'new-session', '-d', '-s', 'b', '/bin/sleep', '600'], {
      env: { PATH: '/usr/bin:/bin' },
    });
    const barePid = Number(spawnSync(TMUX, ['-S', bare, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).stdout.trim());
    const bareExecs = await execsDuring(env.home, barePid, async () => {
      spawnSync(TMUX, ['-S', bare, 'new-window', '-d', '-t', 'b:', '/bin/sleep', '600']);
      spawnSync(TMUX, ['-S', bare, 'kill-window', '-t', 'b:1']);
    });
    spawnSync(TMUX, ['-S', bare, 'kill-server']);
    const ours = await execsDuring(env.home, server.serverPid ?? 0, async () => {
      const pane = await server.createWindow('nu', 'traced', env.workspace, [tmuxPath('/bin/sleep'), tmuxConst('600')]);
      // killed before its exec (a loaded box), the pane never runs /bin/sleep and the trace has nothing to show
      await paneExeced(pane.panePid, '/bin/sleep');
      await server.killWindow(pane.paneId);
    });
    expect(ours).toContain('/bin/sleep'); // the trace saw our pane start
    expect(ours).not.toMatch(/utempter/);
    if (!/utempter/.test(bareExecs)) console.warn('this tmux was built without libutempter: nothing to avoid');
  });
});
