import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { newTurnId, prepareTurnDir, writeFileUnder } from '@genswarms/receipts';
import { createSshRunner } from '../../src/lib/ssh/ssh-runner';
import type { AgentLaunchSpec, RunnerContext, RunnerHandle, Runner } from '../../src/lib/port';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { createTestNetns, startTestSshd, testNetnsUnavailable, testSshdUnavailable, type TestSshd } from '@genswarms/tools';
import { waitFor } from '@genswarms/test-kit';

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`ssh-runner.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;
const SH_CLIENT = path.join(__dirname, 'fixtures', 'sh-client.sh');
const SECRET = `sekrit-${process.pid}-${Date.now()}`;

/** Every process's argv on this host (the remote host of these specs): the secret must be in none. */
function allCmdlines(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p))) {
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // expected: the process exited while we listed /proc
    }
  }
  return out;
}

/** Alive and not a zombie (an orphaned client is reaped by whoever adopted it, maybe later). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false; // expected: no such process
  }
}

d('ssh runner against a real sshd', () => {
  let sshd: TestSshd;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let ctx: RunnerContext;
  let runner: Runner;
  let knownHosts: string;
  const handles: RunnerHandle[] = [];

  beforeAll(async () => {
    sshd = await startTestSshd();
    dirs = makeSandboxDirs('gs-ssh-runner-');
    ctx = makeContext(dirs.home);
    knownHosts = path.join(dirs.root, 'known_hosts');
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
    runner = createSshRunner({ reconnectAttempts: 2, reconnectBaseMs: 50 });
  }, 30000);
  afterAll(async () => {
    for (const h of handles) await h.stop().catch(() => undefined);
    // the remote side is this host: remove the agent directories these specs made under ~/.genswarms-ssh
    for (const h of handles)
      if (h.describe().remote !== undefined) await fsp.rm(h.describe().remote?.dir ?? '', { recursive: true, force: true });
    await runner.close?.('shutdown');
    await sshd?.stop();
    dirs?.cleanup();
  }, 30000);

  const spec = (agent: string, over: Partial<AgentLaunchSpec> = {}): AgentLaunchSpec =>
    makeSpec({
      agent,
      backend: 'ssh',
      host: `${sshd.user}@${sshd.host}`,
      workspace: path.join(dirs.root, `ws-${agent}`),
      client: { command: ['/bin/sh', SH_CLIENT] },
      config: { env: { MY_SECRET: SECRET } },
      backendOpts: { port: sshd.port, key_path: sshd.userKeyPath, known_hosts: knownHosts },
      ...over,
    });

  async function start(agent: string, over: Partial<AgentLaunchSpec> = {}): Promise<{ h: RunnerHandle; ws: string }> {
    const s = spec(agent, over);
    const h = await runner.start(runner.plan(s, ctx), ctx);
    handles.push(h);
    return { h, ws: s.workspace };
  }

  async function turn(h: RunnerHandle, ws: string, content: string, signal = new AbortController().signal) {
    const id = newTurnId();
    expect((await prepareTurnDir(ws, id)).kind).toBe('ok');
    const body = JSON.stringify({ from: 'user', content, seq: 1, timestamp: new Date().toISOString(), turn: id });
    expect((await writeFileUnder(ws, ['.inbox'], `0001_user_${id}.json`, body)).kind).toBe('ok');
    await h.deliver({ turnId: id, seq: 1, from: 'user', content, clientTurnsDir: '' });
    if (h.watchReceipt === undefined) throw new Error('the ssh handle watches receipts');
    return h.watchReceipt(id, { signal });
  }

  it('runs a /bin/sh protocol client through a full turn; no secret on any command line; the env file is gone', async () => {
    const { h, ws } = await start('shell');
    const desc = h.describe();
    expect(desc.backend).toBe('ssh');
    expect(desc.remote).toMatchObject({ user: sshd.user, host: sshd.host, port: sshd.port, keyPath: sshd.userKeyPath });
    expect(JSON.stringify(desc)).not.toContain(SECRET);
    expect(desc.envNames).toContain('MY_SECRET');
    const r = await turn(h, ws, 'hello');
    expect(r).toEqual({ kind: 'ok', status: 'ok', reply: `echo: hello (secret ${SECRET.length})` });
    expect(allCmdlines().some((c) => c.includes(SECRET))).toBe(false);
    const remoteDir = desc.remote?.dir ?? '';
    await expect(fsp.access(path.join(remoteDir, 'env'))).rejects.toThrow(); // the launcher deleted it
    const manifest = await fsp.readFile(path.join(remoteDir, 'launch.argv'), 'utf8');
    expect(manifest).not.toContain(SECRET);
    expect(manifest.split('\0')).toEqual([path.join(remoteDir, 'env'), '/bin/sh', SH_CLIENT, '']);
    expect((await fsp.stat(path.join(remoteDir, 'launch.argv'))).mode & 0o777).toBe(0o400);
    expect((await fsp.stat(remoteDir)).mode & 0o777).toBe(0o700);
    // the local mirror holds the verified receipt
    expect(await fsp.readFile(path.join(ws, '.genswarms', 'turns'), 'utf8').catch(() => 'dir')).toBe('dir');
  }, 30000);

  it('streams the remote client.log as output lines; a FIFO planted as the log is never opened', async () => {
    const { h, ws } = await start('talker');
    const lines: string[] = [];
    h.onOutput((_stream, line) => lines.push(line));
    await waitFor(() => lines.some((l) => l.startsWith('started pid ')), 'the started pid line');
    expect(await turn(h, ws, 'logfifo')).toMatchObject({ kind: 'ok', reply: 'log gone' });
    expect(await turn(h, ws, 'still answering')).toMatchObject({ kind: 'ok' }); // the SFTP channel never blocked on the FIFO
    await h.stop();
  }, 30000);

  it('pulls remote outbox files into the local outbox before the receipt is reported', async () => {
    const { h, ws } = await start('outboxer');
    const r = await turn(h, ws, 'outbox');
    expect(r).toMatchObject({ kind: 'ok', reply: 'sent' });
    expect(JSON.parse(await fsp.readFile(path.join(ws, '.outbox', '0001.json'), 'utf8'))).toEqual({ to: 'peer', content: 'hello peer' });
  }, 30000);

  test.each([
    ['a symlink', 'symlink', ['receipt_symlink']],
    ['a FIFO', 'fifo', ['receipt_not_regular']],
    ['oversize', 'big', ['receipt_too_large']],
    ['growing while read', 'grow', ['receipt_replaced', 'receipt_malformed', 'receipt_too_large']],
  ])(
    'refuses a remote done.json that is %s (needs_attention, never read through)',
    async (_n, content, reasons) => {
      const { h, ws } = await start(`hostile-${content}`);
      const r = await turn(h, ws, content);
      expect(r.kind).toBe('refused');
      if (r.kind === 'refused') expect(reasons).toContain(r.reason);
      await h.stop();
    },
    30000,
  );

  it('a client that exits without a receipt fails the turn instead of leaving it polling, and reports its exit code', async () => {
    const { h, ws } = await start('quitter');
    const exit = new Promise<unknown>((resolve) => h.onExit((code, signal) => resolve({ code, signal })));
    await expect(turn(h, ws, 'exit')).rejects.toMatchObject({ code: 'runner_error' });
    expect(await exit).toEqual({ code: 123, signal: null }); // xargs reports a client exit 1-125 as 123
  }, 30000);

  it('a new start of the same agent stops the client it no longer owns first (never two clients in one workspace)', async () => {
    const first = await start('twice');
    const oldPid = first.h.describe().pid ?? 0;
    const again = await start('twice');
    expect(again.h.describe().pid).not.toBe(oldPid);
    await expect(fsp.access(`/proc/${oldPid}`)).rejects.toThrow();
    expect(await turn(again.h, again.ws, 'only one')).toMatchObject({ kind: 'ok' });
    await again.h.stop();
  }, 30000);

  it('stop kills the remote process group', async () => {
    const { h } = await start('stopper');
    const pid = h.describe().pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const exited = new Promise<[number | null, string | null]>((resolve) => h.onExit((c, s) => resolve([c, s])));
    await h.stop();
    await exited;
    const alive = allCmdlines().filter((c) => c.includes(SH_CLIENT));
    expect(alive.filter((c) => c.includes('stopper'))).toEqual([]);
    await expect(fsp.access(`/proc/${pid}`)).rejects.toThrow();
    expect(await h.health()).toBe('exited');
  }, 30000);

  it('re-attaches to a running remote agent (pid + start time) and refuses a recorded pid that no longer matches', async () => {
    const { h, ws } = await start('survivor');
    const desc = h.describe();
    const other = createSshRunner({ reconnectAttempts: 2, reconnectBaseMs: 50 });
    const adopted = await other.reattach?.(desc, ctx);
    expect(adopted).not.toBeNull();
    if (adopted === null || adopted === undefined) return;
    handles.push(adopted);
    expect(await turn(adopted, ws, 'again')).toMatchObject({ kind: 'ok', reply: expect.stringContaining('echo: again') });
    const forged = { ...desc, remote: { ...(desc.remote ?? ({} as never)), startTime: '1' } };
    expect(await other.reattach?.(forged, ctx)).toBeNull();
    await adopted.stop();
    expect(await other.reattach?.(desc, ctx)).toBeNull();
    await other.close?.('shutdown');
  }, 30000);

  it('a dropped connection is re-opened (bounded) and the running agent followed again: the turn still completes', async () => {
    const { h, ws } = await start('survives-drop');
    const pid = h.describe().pid ?? 0;
    let exited = false;
    h.onExit(() => (exited = true));
    sshd.dropConnections(); // every sshd session process dies; the listener and the agent stay
    await new Promise((r) => setTimeout(r, 300));
    expect(await turn(h, ws, 'after the drop')).toMatchObject({ kind: 'ok', reply: expect.stringContaining('echo: after the drop') });
    expect(exited).toBe(false);
    expect(h.describe().pid).toBe(pid);
    await h.stop();
  }, 30000);

  it('a connection killed mid-turn ends the turn and the session with ssh_disconnected (bounded reconnect, no hang)', async () => {
    const { h, ws } = await start('cut');
    const exit = new Promise<unknown>((resolve) => h.onExit((code, signal, info) => resolve({ code, signal, info })));
    const pending = turn(h, ws, 'hang').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 500));
    sshd.killAll(); // the listener too: every reconnect attempt is refused
    expect(await pending).toMatchObject({ code: 'ssh_disconnected' });
    expect(await exit).toEqual({ code: null, signal: null, info: { reason: 'ssh_disconnected' } });
    await sshd.restart();
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
  }, 60000);

  it('stop after a lost link still stops the remote client once the host answers again', async () => {
    const { h } = await start('orphaned');
    const pid = h.describe().pid ?? 0;
    const exit = new Promise<unknown>((resolve) => h.onExit((code, signal, info) => resolve(info)));
    sshd.dropConnections(); // the client is orphaned on the host, still running
    sshd.killAll(); // and the host stops answering: the session ends as disconnected
    expect(await exit).toEqual({ reason: 'ssh_disconnected' });
    expect(isRunning(pid)).toBe(true);
    await sshd.restart();
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
    await h.stop();
    expect(isRunning(pid)).toBe(false); // orphaned: it may linger as a zombie of whoever adopted it
  }, 60000);
});

const nsSkip = skip ?? testNetnsUnavailable();
if (skip === null && nsSkip !== null) console.warn(`ssh-runner netns spec skipped: ${nsSkip}`);
(nsSkip === null ? describe : describe.skip)('ssh runner to a non-loopback address (sshd in a network namespace)', () => {
  let ns: ReturnType<typeof createTestNetns>;
  let sshd: TestSshd;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeAll(async () => {
    ns = createTestNetns();
    sshd = await startTestSshd({ listen: ns.nsAddr, netns: ns.name });
    dirs = makeSandboxDirs('gs-ssh-netns-');
  }, 30000);
  afterAll(async () => {
    await sshd?.stop();
    ns?.remove();
    dirs?.cleanup();
  });

  it('runs a full turn of a /bin/sh protocol client on 10.x', async () => {
    const ctx = makeContext(dirs.home);
    const knownHosts = path.join(dirs.root, 'known_hosts');
    await fsp.writeFile(knownHosts, `${sshd.knownHostsLine()}\n`);
    const runner = createSshRunner();
    const workspace = path.join(dirs.root, 'ws-ns');
    const s = makeSpec({
      agent: 'netns',
      backend: 'ssh',
      host: `${sshd.user}@${ns.nsAddr}`,
      workspace,
      client: { command: ['/bin/sh', SH_CLIENT] },
      config: { env: { MY_SECRET: SECRET } },
      backendOpts: { port: sshd.port, key_path: sshd.userKeyPath, known_hosts: knownHosts },
    });
    const h = await runner.start(runner.plan(s, ctx), ctx);
    try {
      const id = newTurnId();
      await prepareTurnDir(workspace, id);
      await writeFileUnder(
        workspace,
        ['.inbox'],
        `0001_user.json`,
        JSON.stringify({ from: 'user', content: 'via veth', seq: 1, turn: id }),
      );
      await h.deliver({ turnId: id, seq: 1, from: 'user', content: 'via veth', clientTurnsDir: '' });
      expect(await h.watchReceipt?.(id, { signal: new AbortController().signal })).toMatchObject({
        kind: 'ok',
        reply: expect.stringContaining('echo: via veth'),
      });
      expect(h.describe().remote?.host).toBe(ns.nsAddr);
    } finally {
      await h.stop();
      await runner.close?.('shutdown');
      await fsp.rm(h.describe().remote?.dir ?? '', { recursive: true, force: true });
    }
  }, 60000);
});
