import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerContext, RunnerHandle } from '../../src/index';
import { createSwarmRunner } from '../../src/lib/swarm/swarm-runner';
import { dockerCli, makeCtx, makeDirs, type TestDirs } from '../docker/docker-support';
import { describeIfTwoNodes, makeSwarmSpec, NODES_FILE, NODE2_HOST, nodeIdOf } from './swarm-support';

jest.setTimeout(600_000);
const SECRET = 'sekret-VALUE-42';

describeIfTwoNodes('swarm runner on the real two-node swarm', () => {
  let dirs: TestDirs;
  let ctx: RunnerContext;
  const handles: RunnerHandle[] = [];
  const runner = createSwarmRunner({ nodesFile: NODES_FILE });
  let turnSeq = 0;

  beforeAll(() => {
    dirs = makeDirs('gs-swarm-');
    ctx = makeCtx(dirs.home);
  });
  afterAll(async () => {
    for (const h of handles.splice(0)) await h.stop({ graceMs: 0 });
    dirs.cleanup();
  });

  async function start(overrides: Partial<AgentLaunchSpec>): Promise<{ handle: RunnerHandle; workspace: string }> {
    const workspace = path.join(dirs.root, `ws-${overrides.agent ?? 'a1'}`);
    mkdirSync(workspace, { mode: 0o700 });
    const spec = makeSwarmSpec({ workspace, ...overrides });
    const plan = runner.plan(spec, ctx);
    await runner.preflight?.(plan, ctx);
    const handle = await runner.start(plan, ctx);
    handles.push(handle);
    return { handle, workspace };
  }

  /** What the engine does for one turn: the inbox file in the local mirror, deliver, watch the receipt. */
  async function turn(handle: RunnerHandle, workspace: string, content: string): ReturnType<NonNullable<RunnerHandle['watchReceipt']>> {
    turnSeq += 1;
    const turnId = `t${turnSeq}`;
    mkdirSync(path.join(workspace, '.inbox'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(workspace, '.inbox', `${turnId}.json`), JSON.stringify({ turn: turnId, content }), { mode: 0o600 });
    await handle.deliver({ turnId, seq: turnSeq, from: 'user', content, clientTurnsDir: '/workspace/.genswarms/turns' });
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 120_000);
    try {
      return await handle.watchReceipt!(turnId, { signal: ac.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  it('places agents by constraint on each node, runs full turns there, and routes an outbox message back', async () => {
    const node1 = nodeIdOf('node1');
    const node2 = nodeIdOf('node2');
    const [a, b] = await Promise.all([
      start({ agent: 'on1', backendOpts: { constraints: ['node.labels.genswarms.node==node1'] } }),
      start({ agent: 'on2', backendOpts: { constraints: ['node.labels.genswarms.node==node2'] } }),
    ]);
    expect(a.handle.describe().swarmService?.nodeId).toBe(node1);
    expect(b.handle.describe().swarmService?.nodeId).toBe(node2);
    for (const { handle, workspace } of [a, b]) {
      const r = await turn(handle, workspace, 'hello');
      expect(r.kind).toBe('ok');
      expect(readFileSync(path.join(workspace, '.genswarms', 'turns', `t${turnSeq}`, 'reply.md'), 'utf8')).toBe(
        `echo: hello (env ${SECRET.length})`,
      );
    }
    const out = await turn(b.handle, b.workspace, 'outbox on1');
    expect(out.kind).toBe('ok');
    expect(JSON.parse(readFileSync(path.join(b.workspace, '.outbox', '0001.json'), 'utf8'))).toEqual({ to: 'on1', content: 'hello on1' });
  });

  it('keeps the env secret out of service inspect, task inspect, labels and logs', async () => {
    const { handle, workspace } = await start({ agent: 'sec' });
    expect((await turn(handle, workspace, 'x')).kind).toBe('ok');
    const rec = handle.describe().swarmService!;
    const views = [
      dockerCli(['service', 'inspect', rec.serviceId]),
      dockerCli(['inspect', rec.taskId]),
      dockerCli(['service', 'logs', '--raw', rec.serviceId]),
      dockerCli(['-H', NODE2_HOST, 'inspect', handle.describe().containerId!]),
      dockerCli(['secret', 'ls', '--format', '{{json .}}']),
    ];
    for (const v of views) {
      expect(v).toBeDefined();
      expect(v).not.toContain(SECRET);
    }
    const spec = JSON.parse(views[0] ?? '[]')[0].Spec;
    expect(spec.TaskTemplate.ContainerSpec.Env ?? []).toEqual([]);
    expect(spec.TaskTemplate.RestartPolicy.Condition).toBe('none');
    expect(Object.keys(spec.Labels).sort()).toEqual(['genswarms.agent', 'genswarms.session', 'genswarms.swarm']);
  });

  it.each([
    ['symlink', 'receipt_symlink'],
    ['fifo', 'receipt_not_regular'],
    ['big', 'receipt_too_large'],
  ])('a hostile receipt (%s) inside the container is refused (%s)', async (content, reason) => {
    const { handle, workspace } = await start({ agent: `h-${content}` });
    const r = await turn(handle, workspace, content);
    expect(r).toMatchObject({ kind: 'refused', reason });
  });

  it('stop removes the service, its secret and config', async () => {
    const { handle } = await start({ agent: 'gone' });
    const rec = handle.describe().swarmService!;
    await handle.stop();
    expect(dockerCli(['service', 'inspect', rec.serviceId])).toBeUndefined();
    expect(dockerCli(['secret', 'ls', '-q', '--filter', 'label=genswarms.agent=gone'])?.trim()).toBe('');
    expect(dockerCli(['config', 'ls', '-q', '--filter', 'label=genswarms.agent=gone'])?.trim()).toBe('');
  });
});
