/**
 * The ssh backend end to end through the engine: the REAL built genswarms-agent runs on the other side of a REAL
 * sshd (loopback), answers through the mock LLM, and its marker is routed to a local agent; hostile configs are
 * refused at validate/plan and an unknown host key at start (docs/runners.md "ssh").
 */
import { chmodSync, copyFileSync, existsSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildOnce, startMockLlm, startTestSshd, testSshdUnavailable } from '@genswarms/tools';
import type { MockLlm, TestSshd } from '@genswarms/tools';
import { makeHarness, waitEvent, waitFor, type Harness } from './harness';

const REPO = path.resolve(__dirname, '..', '..', '..');
const AGENT_DIR = path.join(REPO, 'apps', 'agent');
const AGENT_ENTRY = path.join(AGENT_DIR, 'dist', 'main.js');
const SCRIPT = [{ match: 'ssh task', response: 'remote answer\n<<SWARM_MSG:TO=peer:START>>marker from the remote agent<<SWARM_MSG:END>>' }];

/** A /bin/sh protocol client: answers each inbox file's turn (reply.md, then done.json by rename). */
const SH_ANSWER = `#!/bin/sh
ws=$GENSWARMS_WORKSPACE
while :; do
  for f in "$ws"/.inbox/*.json; do
    [ -f "$f" ] || continue
    turn=$(sed -n 's/.*"turn":"\\([a-z0-9_-]*\\)".*/\\1/p' "$f")
    mv -f "$f" "$f.seen"
    d="$ws/.genswarms/turns/$turn"
    printf 'polled answer' > "$d/reply.md"
    printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$d/.done.tmp" && mv "$d/.done.tmp" "$d/done.json"
  done
  sleep 0.05
done
`;

const skip = testSshdUnavailable();
if (skip !== null) console.warn(`engine-ssh.spec skipped: ${skip}`);
const d = skip === null ? describe : describe.skip;

d('ssh agents through the engine (real sshd, real genswarms-agent, mock LLM)', () => {
  let llm: MockLlm;
  let sshd: TestSshd;
  let h: Harness;

  beforeAll(async () => {
    const built = buildOnce([path.join(AGENT_DIR, 'tsconfig.lib.json')]);
    if (built.kind === 'failed' || !existsSync(AGENT_ENTRY))
      throw new Error(`agent build failed:\n${built.kind === 'failed' ? built.output : 'no entry'}`);
    llm = await startMockLlm({ script: SCRIPT });
    sshd = await startTestSshd();
    h = await makeHarness({ agentEntry: AGENT_ENTRY, llmEndpoint: `${llm.url}/v1` });
  }, 180_000);
  afterAll(async () => {
    // the remote side is this host: remove the agent directories the sessions recorded under ~/.genswarms-ssh
    for (const name of ['remote']) {
      for (const swarm of ['unknown', 'mixed', 'unverified', 'both', 'nopush']) {
        const dir = (
          (await h?.engine.store.getSession(swarm, name).catch(() => null))?.description as { remote?: { dir?: string } } | undefined
        )?.remote?.dir;
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      }
    }
    await h?.cleanup();
    await sshd?.stop();
    await llm?.close();
  }, 60_000);

  const remoteAgent = (opts: Record<string, unknown> = {}) => ({
    name: 'remote',
    backend: { type: 'ssh', host: `${sshd.user}@${sshd.host}`, opts: { port: sshd.port, key_path: sshd.userKeyPath, ...opts } },
    network: 'open',
  });
  const config = (name: string, opts: Record<string, unknown> = {}) => ({
    name,
    agents: [remoteAgent(opts), { name: 'peer', backend: { type: 'mock', opts: { replies: ['peer got {{content}}'] } } }],
    topology: [['remote', 'peer']],
  });

  test.each([
    ['silently_accept_hosts as the string "true"', { silently_accept_hosts: 'true' }],
    ['an unknown option', { proxy_command: 'nc %h %p' }],
    ['a relative key_path', { key_path: 'id_ed25519' }],
    ['a port out of range', { port: 70000 }],
  ])('refuses %s at plan (validation_failed), creating nothing', async (_n, opts) => {
    await expect(h.engine.startSwarm({ config: config(`bad${Math.random().toString(16).slice(2, 8)}`, opts) })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('refuses network none for an ssh agent (unsupported_network)', async () => {
    const c = config('nonet');
    (c.agents[0] as Record<string, unknown>)['network'] = 'none';
    await expect(h.engine.startSwarm({ config: c })).rejects.toMatchObject({ code: 'unsupported_network' });
  });

  it('an unknown host key fails the agent at start with ssh_host_key_unknown (nothing ran remotely)', async () => {
    await h.engine.startSwarm({ config: config('unknown') });
    const ev = await waitEvent(h.engine, 'unknown', (e) => e.event_type === 'agent_failed' && e.agent === 'remote', 'agent_failed');
    expect(JSON.stringify(ev)).toContain('ssh_host_key_unknown');
    await h.engine.stopSwarm('unknown');
  }, 60_000);

  test.each([
    ['a symlink', (key: string, link: string) => symlinkSync(key, link)],
    ['world-readable', (key: string, copy: string) => (copyFileSync(key, copy), chmodSync(copy, 0o644))],
  ])(
    'a key_path that is %s fails the agent at start with ssh_key_unsafe',
    async (what, make) => {
      const bad = path.join(h.home, `key-${what.replace(/\W/g, '')}`);
      make(sshd.userKeyPath, bad);
      const swarm = `key${what.replace(/\W/g, '')}`;
      await h.engine.startSwarm({ config: config(swarm, { key_path: bad }) });
      const ev = await waitEvent(h.engine, swarm, (e) => e.event_type === 'agent_failed' && e.agent === 'remote', 'agent_failed');
      expect(JSON.stringify(ev)).toContain('ssh_key_unsafe');
      await h.engine.stopSwarm(swarm);
    },
    60_000,
  );

  it('refuses a client executable missing on the remote host at plan (binary_missing, checked over the connection)', async () => {
    writeFileSync(path.join(h.home, 'known_hosts'), `${sshd.knownHostsLine()}\n`, { mode: 0o600 });
    const c = config('nobin');
    (c.agents[0] as Record<string, unknown>)['client'] = { command: ['/nonexistent/remote-client'] };
    await expect(h.engine.startSwarm({ config: c })).rejects.toMatchObject({ code: 'binary_missing' });
  });

  it('runs a full turn remotely and routes its marker to a local agent', async () => {
    await h.engine.startSwarm({ config: config('mixed') });
    await waitFor(async () => (await h.engine.getAgent('mixed', 'remote')).state === 'idle', 'remote idle', { timeoutMs: 60_000 });
    expect(await h.engine.getAgent('mixed', 'remote')).toMatchObject({ backend: 'ssh', host_key_verified: true });
    expect((await h.engine.getAgent('mixed', 'peer')).host_key_verified).toBeUndefined();
    await h.engine.sendTask('mixed', 'remote', 'ssh task: say hi');
    await waitEvent(h.engine, 'mixed', (e) => e.event_type === 'turn_completed' && e.agent === 'peer', 'peer turn');
    const turns = await h.engine.listTurns('mixed', 'remote');
    expect(turns.turns[0]).toMatchObject({ status: 'completed', reply_preview: expect.stringContaining('remote answer') });
    expect((await h.engine.listMessages('mixed')).messages).toMatchObject([{ from: 'remote', to: 'peer', type: 'direct' }]);
  }, 120_000);

  it("routes a local agent's message to the remote agent (inbox uploaded over SFTP), whose answer routes back", async () => {
    const c = {
      name: 'both',
      agents: [
        remoteAgent(),
        { name: 'peer', backend: { type: 'mock', opts: { replies: ['peer got {{content}}'] } } },
        {
          name: 'sender',
          backend: { type: 'mock', opts: { replies: ['<<SWARM_MSG:TO=remote:START>>ssh task: {{content}}<<SWARM_MSG:END>>'] } },
        },
      ],
      topology: [
        ['sender', 'remote'],
        ['remote', 'peer'],
      ],
    };
    await h.engine.startSwarm({ config: c });
    await waitFor(async () => (await h.engine.getAgent('both', 'remote')).state === 'idle', 'remote idle', { timeoutMs: 60_000 });
    await h.engine.sendTask('both', 'sender', 'from the local side');
    await waitEvent(h.engine, 'both', (e) => e.event_type === 'turn_completed' && e.agent === 'peer', 'peer turn');
    const routes = (await h.engine.listMessages('both')).messages.map((m) => `${m.from}->${m.to}`);
    expect(routes).toEqual(expect.arrayContaining(['sender->remote', 'remote->peer']));
    await h.engine.stopSwarm('both');
  }, 120_000);

  it('silently_accept_hosts: true connects to an unknown host and records the ssh_host_key_unverified warning', async () => {
    const empty = path.join(h.home, 'empty_known_hosts');
    writeFileSync(empty, '', { mode: 0o600 });
    await h.engine.startSwarm({ config: config('unverified', { known_hosts: empty, silently_accept_hosts: true }) });
    const ev = await waitEvent(h.engine, 'unverified', (e) => e.event_type === 'ssh_host_key_unverified', 'the warning');
    expect(ev).toMatchObject({ agent: 'remote', level: 'warning' });
    await waitFor(async () => (await h.engine.getAgent('unverified', 'remote')).state === 'idle', 'remote idle', { timeoutMs: 60_000 });
    expect((await h.engine.getAgent('unverified', 'remote')).host_key_verified).toBe(false);
    await h.engine.stopSwarm('unverified');
  }, 60_000);

  it('a remote without node for the receipt watcher: one receipt_push_lost warning, and turns complete by the poll', async () => {
    writeFileSync(path.join(h.home, 'known_hosts'), `${sshd.knownHostsLine()}\n`, { mode: 0o600 });
    const script = path.join(h.home, 'answer.sh');
    writeFileSync(script, SH_ANSWER, { mode: 0o755 });
    const c = config('nopush', { remote_node: '/nonexistent/bin/node' });
    (c.agents[0] as Record<string, unknown>)['client'] = { command: ['/bin/sh', script] };
    await h.engine.startSwarm({ config: c });
    const ev = await waitEvent(h.engine, 'nopush', (e) => e.event_type === 'receipt_push_lost', 'the warning');
    expect(ev).toMatchObject({ agent: 'remote', level: 'warning', metadata: { detail: expect.stringContaining('polled every 250 ms') } });
    await waitFor(async () => (await h.engine.getAgent('nopush', 'remote')).state === 'idle', 'remote idle', { timeoutMs: 60_000 });
    await h.engine.sendTask('nopush', 'remote', 'hello');
    await waitEvent(h.engine, 'nopush', (e) => e.event_type === 'turn_completed' && e.agent === 'remote', 'the turn');
    expect((await h.engine.listTurns('nopush', 'remote')).turns[0]).toMatchObject({ status: 'completed', reply_preview: 'polled answer' });
    await h.engine.stopSwarm('nopush');
  }, 120_000);

  it('a server restart re-attaches to the running remote agent (same pid) and its next turn completes', async () => {
    const pidBefore = (await h.engine.store.getSession('mixed', 'remote'))?.description as { pid?: number } | undefined;
    expect(pidBefore?.pid).toBeGreaterThan(0);
    await h.engine.detach();
    h.engine = await h.open();
    await waitFor(async () => (await h.engine.getAgent('mixed', 'remote')).state === 'idle', 'remote idle again', { timeoutMs: 60_000 });
    const pidAfter = (await h.engine.store.getSession('mixed', 'remote'))?.description as { pid?: number } | undefined;
    expect(pidAfter?.pid).toBe(pidBefore?.pid);
    await h.engine.sendTask('mixed', 'remote', 'ssh task: again');
    await waitFor(
      async () => (await h.engine.listTurns('mixed', 'remote')).turns.filter((t) => t.status === 'completed').length === 2,
      'second turn',
      { timeoutMs: 60_000 },
    );
    await h.engine.stopSwarm('mixed');
  }, 120_000);
});
