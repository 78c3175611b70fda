/**
 * A remote agent runs as the ssh user and can write everything in its agent directory, the pid file included. What
 * a stop (or a new start's stop of the previous client) signals must come from the host's own record — the pid and
 * start time of the run script's process group leader, read from the run channel before the client existed — and
 * only a group whose leader still matches them is signalled. The fixture client points its pid file at another
 * process group of the same user (a detached `sleep`, its own session), as any agent could.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createSshRunner } from '../../src/lib/ssh/ssh-runner';
import type { AgentLaunchSpec, RunnerContext, RunnerHandle, Runner } from '../../src/lib/port';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { startTestSshd, testSshdUnavailable, type TestSshd } from '@genswarms/tools';
import { clientPidOf, isRunning, runTurn } from './ssh-support';
import { waitFor } from '@genswarms/test-kit';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-stop-identity.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const SH_CLIENT = path.join(__dirname, 'fixtures', 'sh-client.sh');

/** The first word of `/proc/<pid>/stat` fields after the command: [state, ppid, pgrp, session]. */
function statOf(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

d('ssh stop signals only the process group the host recorded', () => {
  let sshd: TestSshd;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let ctx: RunnerContext;
  let runner: Runner;
  let knownHosts: string;
  let victim: ChildProcess;
  const handles: RunnerHandle[] = [];

  beforeAll(async () => {
    sshd = await startTestSshd();
    dirs = makeSandboxDirs('gs-ssh-identity-');
    ctx = makeContext(dirs.home);
    knownHosts = path.join(dirs.root, 'known_hosts');
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
    runner = createSshRunner({ reconnectAttempts: 2, reconnectBaseMs: 50 });
  }, 30000);
  beforeEach(() => {
    // another process group (and session) of the remote user: what a forged pid file points the stop at
    victim = spawn('/bin/sleep', ['600'], { detached: true, stdio: 'ignore', shell: false });
  });
  afterEach(() => {
    if (victim.pid !== undefined && isRunning(victim.pid)) victim.kill('SIGKILL');
  });
  afterAll(async () => {
    for (const h of handles) await h.stop().catch(() => undefined);
    for (const h of handles)
      if (h.describe().remote !== undefined) await fsp.rm(h.describe().remote?.dir ?? '', { recursive: true, force: true });
    await runner.close?.('shutdown');
    await sshd?.stop();
    dirs?.cleanup();
  }, 30000);

  const spec = (agent: string): AgentLaunchSpec =>
    makeSpec({
      agent,
      backend: 'ssh',
      host: `${sshd.user}@${sshd.host}`,
      workspace: path.join(dirs.root, `ws-${agent}`),
      client: { command: ['/bin/sh', SH_CLIENT] },
      config: { env: { FORGE_PID: String(victim.pid) } },
      backendOpts: { port: sshd.port, key_path: sshd.userKeyPath, known_hosts: knownHosts },
    });

  async function start(agent: string, using: Runner = runner): Promise<{ h: RunnerHandle; ws: string; dir: string }> {
    const s = spec(agent);
    const h = await using.start(using.plan(s, ctx), ctx);
    handles.push(h);
    return { h, ws: s.workspace, dir: h.describe().remote?.dir ?? '' };
  }

  /** Until the agent's pid file names the victim (the fixture rewrites it for its first 3 s). */
  async function forged(dir: string): Promise<void> {
    await waitFor(() => {
      try {
        return readFileSync(path.join(dir, 'pid'), 'utf8').startsWith(`${victim.pid} `);
      } catch {
        return false; // expected: not written yet
      }
    }, 'the pid file to name the victim');
  }

  it('records the run script (its group and session leader), whatever the client writes into its pid file at once', async () => {
    const { h, dir } = await start('recorded');
    const pid = h.describe().pid ?? 0;
    expect(pid).not.toBe(victim.pid);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(
      path.join(path.dirname(path.dirname(dir)), 'bin', 'genswarms-ssh-run'),
    );
    const [, , pgrp, session] = statOf(pid);
    expect([Number(pgrp), Number(session)]).toEqual([pid, pid]);
    expect(h.describe().remote).toMatchObject({ pid, startTime: statOf(pid)[19] });
    await h.stop();
  }, 30000);

  it('a stop ends the recorded group and leaves the group the forged pid file names', async () => {
    const { h, ws, dir } = await start('liar');
    const pid = h.describe().pid ?? 0;
    await forged(dir);
    expect(await runTurn(h, ws, 'forge')).toMatchObject({ kind: 'ok', reply: 'forged' });
    const client = clientPidOf(dir);
    expect(client).toBeGreaterThan(0);
    await h.stop();
    expect(isRunning(victim.pid ?? 0)).toBe(true);
    await waitFor(() => !isRunning(pid) && !isRunning(client), 'the agent and its client to end');
  }, 30000);

  it('a new start (a restarted server) stops the previous client by the host record, never by its pid file', async () => {
    const first = await start('restarted');
    const oldPid = first.h.describe().pid ?? 0;
    const oldClient = clientPidOf(first.dir);
    await forged(first.dir);
    const fresh = createSshRunner({ reconnectAttempts: 2, reconnectBaseMs: 50 });
    try {
      const again = await start('restarted', fresh);
      expect(isRunning(victim.pid ?? 0)).toBe(true);
      await waitFor(() => !isRunning(oldPid) && !isRunning(oldClient), 'the old agent and its client to end');
      expect(again.h.describe().pid).not.toBe(oldPid);
      await again.h.stop();
    } finally {
      await fresh.close?.('shutdown');
    }
  }, 30000);
});
