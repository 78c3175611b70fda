/**
 * ssh receipts pushed by the remote watcher (docs/receipts.md "Remote receipts: the push"), against a real sshd on
 * this host (so /proc here is the remote host's): the receipt arrives by the push alone, a killed watcher or one the
 * agent floods degrades to the poll with a report, and the receipt is still read and verified as without the push.
 */
import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createSshRunner } from '../../src/lib/ssh/ssh-runner';
import type { AgentLaunchSpec, RunnerContext, RunnerHandle, Runner } from '../../src/lib/port';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { startTestSshd, testSshdUnavailable, type TestSshd } from '@genswarms/tools';
import { waitFor } from '@genswarms/test-kit';
import { runTurn } from './ssh-support';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-receipt-push.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const SH_CLIENT = path.join(__dirname, 'fixtures', 'sh-client.sh');

/** Pids of the receipt watchers running for `remoteWorkspace` on this host. */
function watcherPids(remoteWorkspace: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('/genswarms-receipt-watch')) && argv.includes(remoteWorkspace)) out.push(Number(pid));
    } catch {
      // expected: the process exited while we listed /proc
    }
  }
  return out;
}

d('ssh receipt push against a real sshd', () => {
  let sshd: TestSshd;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let ctx: RunnerContext;
  let knownHosts: string;
  const runners: Runner[] = [];
  const handles: RunnerHandle[] = [];

  beforeAll(async () => {
    sshd = await startTestSshd();
    dirs = makeSandboxDirs('gs-ssh-push-');
    ctx = makeContext(dirs.home);
    knownHosts = path.join(dirs.root, 'known_hosts');
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
  }, 30000);
  afterAll(async () => {
    for (const h of handles) await h.stop().catch(() => undefined);
    for (const h of handles)
      if (h.describe().remote !== undefined) await fsp.rm(h.describe().remote?.dir ?? '', { recursive: true, force: true });
    for (const r of runners) await r.close?.('shutdown');
    await sshd?.stop();
    dirs?.cleanup();
  }, 30000);

  async function start(
    agent: string,
    runnerOpts: Parameters<typeof createSshRunner>[0],
    opts: Record<string, unknown> = {},
  ): Promise<{ h: RunnerHandle; ws: string; remoteWs: string; lost: string[] }> {
    const runner = createSshRunner({ reconnectAttempts: 2, reconnectBaseMs: 50, ...runnerOpts });
    runners.push(runner);
    const s: AgentLaunchSpec = makeSpec({
      agent,
      backend: 'ssh',
      host: `${sshd.user}@${sshd.host}`,
      workspace: path.join(dirs.root, `ws-${agent}`),
      client: { command: ['/bin/sh', SH_CLIENT] },
      config: { env: { MY_SECRET: 'x' } },
      backendOpts: { port: sshd.port, key_path: sshd.userKeyPath, known_hosts: knownHosts, remote_node: process.execPath, ...opts },
    });
    const h = await runner.start(runner.plan(s, ctx), ctx);
    handles.push(h);
    const lost: string[] = [];
    h.onReceiptPushLost?.((detail) => lost.push(detail));
    return { h, ws: s.workspace, remoteWs: path.posix.join(h.describe().remote?.dir ?? '', 'workspace'), lost };
  }

  it('delivers the receipt by the push alone: with a 10-minute fallback poll the turn still completes', async () => {
    const { h, ws, remoteWs, lost } = await start('pushed', { receiptPushPollMs: 600_000 });
    await waitFor(() => watcherPids(remoteWs).length === 1, 'watcherPids(remoteWs).length === 1');
    for (const content of ['one', 'two', 'three']) {
      expect(await runTurn(h, ws, content)).toEqual({ kind: 'ok', status: 'ok', reply: `echo: ${content} (secret 1)` });
    }
    expect(lost).toEqual([]);
    await h.stop();
    await waitFor(() => watcherPids(remoteWs).length === 0, 'watcherPids(remoteWs).length === 0'); // stdin closed with the channel: it exits
  }, 60000);

  it('a killed watcher is reported, the turn completes by the poll, and the watcher is started again', async () => {
    const { h, ws, remoteWs, lost } = await start('killed', {});
    await waitFor(() => watcherPids(remoteWs).length === 1, 'watcherPids(remoteWs).length === 1');
    expect(await runTurn(h, ws, 'before')).toMatchObject({ kind: 'ok', reply: 'echo: before (secret 1)' });
    const [first] = watcherPids(remoteWs);
    process.kill(first ?? 0, 'SIGKILL');
    await waitFor(() => lost.length === 1, 'lost.length === 1');
    expect(lost[0]).toMatch(/^the receipt watcher exited .*; receipts are polled every 250 ms$/);
    expect(await runTurn(h, ws, 'after')).toMatchObject({ kind: 'ok', reply: 'echo: after (secret 1)' });
    await waitFor(() => watcherPids(remoteWs).some((p) => p !== first), 'watcherPids(remoteWs).some((p) => p !== first)');
  }, 60000);

  it('an agent that floods its watcher with an oversize line gets it dropped: reported, and the receipt still verified', async () => {
    const { h, ws, remoteWs, lost } = await start('flooder', {});
    await waitFor(() => watcherPids(remoteWs).length === 1, 'watcherPids(remoteWs).length === 1');
    expect(await runTurn(h, ws, 'pushflood')).toEqual({ kind: 'ok', status: 'ok', reply: 'flooded' });
    await waitFor(() => lost.length >= 1, 'lost.length >= 1');
    expect(lost[0]).toMatch(/^the watcher was dropped: a line over the length bound; receipts are polled/);
  }, 60000);

  test.each([
    ['a symlink', 'symlink', 'receipt_symlink'],
    ['a FIFO', 'fifo', 'receipt_not_regular'],
    ['oversize', 'big', 'receipt_too_large'],
  ])(
    'a pushed receipt that is %s is refused exactly as a polled one',
    async (_name, content, reason) => {
      const { h, ws } = await start(`hostile-${content}`, { receiptPushPollMs: 600_000 });
      expect(await runTurn(h, ws, content)).toMatchObject({ kind: 'refused', reason });
    },
    60000,
  );

  it('a remote without that node: no watcher, one report, turns complete by the poll', async () => {
    const { h, ws, lost } = await start('nonode', {}, { remote_node: '/nonexistent/bin/node' });
    await waitFor(() => lost.length === 1, 'lost.length === 1');
    expect(lost[0]).toMatch(/^the receipt watcher exited \(status 127\); receipts are polled every 250 ms$/);
    expect(await runTurn(h, ws, 'polled')).toMatchObject({ kind: 'ok', reply: 'echo: polled (secret 1)' });
    expect(lost).toHaveLength(1); // one that never came up is not retried
  }, 60000);
});
