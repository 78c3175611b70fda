/**
 * The swarm backend on the real two-node swarm (tools/docker/two-node-swarm.sh): three agents started at once —
 * `open` on node1, `none` and `isolated` on node2 — carry every check, so the spec stays within about a minute.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext, RunnerHandle } from '../../src/index';
import { createSwarmRunner } from '../../src/lib/swarm/swarm-runner';
import { dockerCli, makeCtx, makeDirs, type TestDirs } from '../docker/docker-support';
import { describeIfTwoNodes, HOST_VETH_ADDR, makeSwarmSpec, NODES_FILE, NODE2_HOST, nodeIdOf, startMockLlmOn } from './swarm-support';

jest.setTimeout(600_000);
const SECRET = 'sekret-VALUE-42';
type Final = Awaited<ReturnType<NonNullable<RunnerHandle['watchReceipt']>>>;

describeIfTwoNodes('swarm runner on the real two-node swarm', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  let llm: { port: number; child: ChildProcess };
  let orchestrator: Server;
  let orchestratorPort: number;
  const handles: RunnerHandle[] = [];
  const runner = createSwarmRunner({ nodesFile: NODES_FILE });
  let turnSeq = 0;
  let strayId = '';
  const agents: Record<'on1' | 'on2' | 'iso', { handle: RunnerHandle; workspace: string }> = {} as never;

  async function start(overrides: Partial<AgentLaunchSpec>): Promise<{ handle: RunnerHandle; workspace: string }> {
    const workspace = path.join(dirs.root, `ws-${overrides.agent ?? 'a1'}`);
    mkdirSync(workspace, { mode: 0o700 });
    const plan = runner.plan(makeSwarmSpec({ workspace, ...overrides }), ctx);
    await runner.preflight?.(plan, ctx);
    const handle = await runner.start(plan, ctx);
    handles.push(handle);
    return { handle, workspace };
  }

  beforeAll(async () => {
    dirs = makeDirs('gs-swarm-');
    llm = await startMockLlmOn(HOST_VETH_ADDR);
    orchestrator = createServer((_req, res) => res.end('orchestrator'));
    await new Promise<void>((resolve) => orchestrator.listen(0, '0.0.0.0', resolve));
    orchestratorPort = (orchestrator.address() as AddressInfo).port;
    ctx = makeCtx(dirs.home, { llm: { allowedHosts: [HOST_VETH_ADDR], serverApiKey: 'sk-server-SECRET-1' } });
    // a crashed orchestrator's leftover secret for `on1`: the next start of that agent removes it
    const stray = path.join(dirs.root, 'stray');
    writeFileSync(stray, 'stale', { mode: 0o600 });
    strayId = (
      dockerCli(['secret', 'create', '--label', 'genswarms.swarm=sw', '--label', 'genswarms.agent=on1', 'gs-sw-on1-env-stale', stray]) ?? ''
    ).trim();
    const on1 = { constraints: ['node.labels.genswarms.node==node1'] };
    [agents.on1, agents.on2, agents.iso] = await Promise.all([
      start({ agent: 'on1', network: 'open', backendOpts: on1 }),
      start({ agent: 'on2', network: 'none' }),
      start({ agent: 'iso', network: 'isolated', endpoint: `http://${HOST_VETH_ADDR}:${llm.port}/v1` }),
    ]);
  });
  afterAll(async () => {
    for (const h of handles.splice(0)) await h.stop({ graceMs: 0 });
    llm?.child.kill('SIGKILL');
    orchestrator?.close();
    dirs?.cleanup();
  });

  /** What the engine does for one turn: the inbox file in the local mirror, deliver, watch the receipt. */
  async function turn(
    who: { handle: RunnerHandle; workspace: string },
    content: string,
    timeoutMs = 120_000,
  ): Promise<Final & { turnId: string }> {
    turnSeq += 1;
    const turnId = `t${turnSeq}`;
    mkdirSync(path.join(who.workspace, '.inbox'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(who.workspace, '.inbox', `${turnId}.json`), JSON.stringify({ turn: turnId, content }), { mode: 0o600 });
    await who.handle.deliver({ turnId, seq: turnSeq, from: 'user', content, clientTurnsDir: '/workspace/.genswarms/turns' });
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    try {
      return { ...(await who.handle.watchReceipt!(turnId, { signal: ac.signal })), turnId };
    } finally {
      clearTimeout(timer);
    }
  }
  const replyOf = (who: { workspace: string }, turnId: string): string =>
    readFileSync(path.join(who.workspace, '.genswarms', 'turns', turnId, 'reply.md'), 'utf8');

  it('places agents by constraint on each node and runs full turns there; an outbox message reaches the local mirror', async () => {
    expect(agents.on1.handle.describe().swarmService?.nodeId).toBe(nodeIdOf('node1'));
    expect(agents.on2.handle.describe().swarmService?.nodeId).toBe(nodeIdOf('node2'));
    expect(strayId).not.toBe('');
    expect(dockerCli(['secret', 'inspect', strayId])).toBeUndefined(); // the leftover went with the new start
    for (const who of [agents.on1, agents.on2]) {
      const r = await turn(who, 'hello');
      expect(r.kind).toBe('ok');
      expect(replyOf(who, r.turnId)).toBe(`echo: hello (env ${SECRET.length})`);
    }
    expect((await turn(agents.on2, 'outbox on1')).kind).toBe('ok');
    expect(JSON.parse(readFileSync(path.join(agents.on2.workspace, '.outbox', '0001.json'), 'utf8'))).toEqual({
      to: 'on1',
      content: 'hello on1',
    });
  });

  it.each([
    ['symlink', ['receipt_symlink']],
    ['fifo', ['receipt_not_regular']],
    ['big', ['receipt_too_large']],
    ['grow', ['receipt_replaced', 'receipt_malformed', 'receipt_too_large']],
  ])('a hostile receipt (%s) written inside the container on node2 is refused', async (content, reasons) => {
    const r = await turn(agents.on2, content);
    expect(r.kind).toBe('refused');
    expect(reasons).toContain((r as { reason: string }).reason);
  });

  it('keeps the env secret out of service inspect, task inspect, labels and logs', async () => {
    const rec = agents.on2.handle.describe().swarmService!;
    const views = [
      dockerCli(['service', 'inspect', rec.serviceId]),
      dockerCli(['inspect', rec.taskId]),
      dockerCli(['service', 'logs', '--raw', rec.serviceId]),
      dockerCli(['-H', NODE2_HOST, 'inspect', agents.on2.handle.describe().containerId!]),
      dockerCli(['secret', 'ls', '--format', '{{json .}}']),
    ];
    for (const v of views) {
      expect(v).toBeDefined();
      expect(v).not.toContain(SECRET);
      expect(v).not.toContain('sk-server-SECRET-1');
    }
    const spec = JSON.parse(views[0] ?? '[]')[0].Spec;
    expect(spec.TaskTemplate.ContainerSpec.Env ?? []).toEqual([]);
    expect(spec.TaskTemplate.RestartPolicy.Condition).toBe('none');
    expect(spec.Mode.Replicated.Replicas).toBe(1);
    expect(Object.keys(spec.Labels).sort()).toEqual(['genswarms.agent', 'genswarms.session', 'genswarms.swarm']);
  });

  it('isolated: from inside the task the orchestrator and an outside host are unreachable, the LLM is (through the forwarder)', async () => {
    const targets = `${HOST_VETH_ADDR} ${orchestratorPort} 192.0.2.2 ${orchestratorPort} ${HOST_VETH_ADDR} ${llm.port}`;
    const control = await turn(agents.on1, `probe ${targets}`);
    expect(replyOf(agents.on1, control.turnId)).toContain(`${HOST_VETH_ADDR}:${orchestratorPort}=connected`); // the probe can succeed
    const iso = await turn(agents.iso, `probe ${targets}`);
    expect(replyOf(agents.iso, iso.turnId)).not.toContain('connected');
    const none = await turn(agents.on2, `probe ${targets}`);
    expect(replyOf(agents.on2, none.turnId)).not.toContain('connected');
    const viaForwarder = await turn(agents.iso, 'llm');
    expect(replyOf(agents.iso, viaForwarder.turnId)).toBe('llm 200');
  });

  it('a restarted orchestrator (a fresh runner) re-adopts the service recorded in the store, and refuses a foreign record', async () => {
    const fresh = createSwarmRunner({ nodesFile: NODES_FILE });
    const adopted = await fresh.reattach!(agents.on1.handle.describe(), ctx);
    expect(adopted).not.toBeNull();
    const r = await turn({ handle: adopted!, workspace: agents.on1.workspace }, 'again');
    expect(r.kind).toBe('ok');
    const foreign = { ...agents.on1.handle.describe(), sessionId: 'not-this-session' };
    const other = createSwarmRunner({ nodesFile: NODES_FILE });
    expect(await other.reattach!({ ...foreign, swarmService: { serviceId: 'nosuchservice', taskId: 'x', nodeId: 'y' } }, ctx)).toBeNull();
  });

  it('a task Swarm replaces ends the session with agent_rescheduled and fails the turn in flight (never run twice)', async () => {
    const who = agents.on2;
    const exited = new Promise<unknown>((resolve) => who.handle.onExit((_c, _s, info) => resolve(info)));
    const inFlight = turn(who, 'slow 60000').then(
      () => 'completed',
      (e: { code?: string }) => e.code,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(dockerCli(['service', 'update', '--detach', '--force', who.handle.describe().swarmService!.serviceId])).toBeDefined();
    expect(await inFlight).toBe('agent_rescheduled');
    expect(await exited).toEqual({ reason: 'agent_rescheduled' });
  });

  it('stop removes the service, its forwarder, secret, config and network', async () => {
    const rec = agents.iso.handle.describe().swarmService!;
    await agents.iso.handle.stop();
    expect(dockerCli(['service', 'inspect', rec.serviceId])).toBeUndefined();
    for (const kind of ['service', 'secret', 'config', 'network']) {
      expect(dockerCli([kind, 'ls', '-q', '--filter', 'label=genswarms.agent=iso'])?.trim()).toBe('');
    }
  });
});
