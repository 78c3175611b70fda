/**
 * memory_limit, pids_limit and cpu_limit on a bwrap agent are enforced by its cgroup, proven from inside a real
 * sandbox; a host that cannot enforce one refuses the plan (limits_unsupported). Needs root and a cgroup with the
 * memory, pids and cpu controllers (v1 as root, or a delegated v2 subtree): skipped with a reason otherwise.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ExitInfo, RunnerHandle } from '../../src/index';
import { createBwrapRunner, RunnerError } from '../../src/index';
import { detectLimitSupport } from '../../src/lib/cgroup/limit-detect';
import { limitGroupFor, prepareLimitGroup, removeLimitGroup } from '../../src/lib/cgroup/agent-limits';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec, waitForFile } from '../support';
import { refusal } from '@genswarms/test-kit';

const support = detectLimitSupport();
const complete = support.bases.memory !== undefined && support.bases.pids !== undefined && support.bases.cpu !== undefined;
const runnable = haveBinary('bwrap') && complete;
const suite = runnable ? describe : describe.skip;
if (!runnable) console.warn(`SKIPPED bwrap-limits: needs bwrap and memory, pids, cpu cgroups (${support.reasons.join('; ')})`);

/** Generous bound for cpu_limit 0.2: the quota allows 0.2 CPU per 100 ms period; sampling adds a little. */
const CPU_SHARE_MAX = 0.3;
const CPU_SAMPLE_MS = 3000;

suite('bwrap limits enforced by the agent cgroup (real bubblewrap, real cgroups)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    handle = undefined;
    dirs.cleanup();
  });

  const start = async (
    command: string[],
    config: Record<string, unknown>,
  ): Promise<{ handle: RunnerHandle; dirs: Record<string, string> }> => {
    const ctx = makeContext(dirs.home);
    const runner = createBwrapRunner();
    const spec = makeSpec({ backend: 'bwrap', network: 'none', workspace: dirs.workspace, client: { command }, config });
    const group = limitGroupFor(spec, ctx);
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    return { handle, dirs: { ...group?.dirs } };
  };

  it('a memory hog over memory_limit is killed and the exit says oom_killed; the groups are removed at stop', async () => {
    const hog = 'const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1));';
    const { handle: h, dirs: groupDirs } = await start([process.execPath, '-e', hog], { memory_limit: '64m' });
    expect(existsSync(groupDirs['memory'] as string)).toBe(true);
    const exited = new Promise<ExitInfo | undefined>((resolve) => h.onExit((_c, _s, info) => resolve(info)));
    expect(await exited).toEqual({ reason: 'oom_killed' });
    await h.stop({ graceMs: 200 });
    for (const dir of Object.values(groupDirs)) expect(existsSync(dir)).toBe(false);
  });

  it('a leftover group (old values, an OOM count) is replaced by a fresh one: a higher memory_limit is not refused', async () => {
    const ctx = makeContext(dirs.home);
    const low = limitGroupFor(makeSpec({ backend: 'bwrap', workspace: dirs.workspace, config: { memory_limit: '32m' } }), ctx);
    const high = limitGroupFor(makeSpec({ backend: 'bwrap', workspace: dirs.workspace, config: { memory_limit: '128m' } }), ctx);
    if (low === undefined || high === undefined) throw new Error('no limit group');
    await prepareLimitGroup(low);
    await prepareLimitGroup(high); // with memsw at 32m left over, raising the limit alone would be EINVAL
    const dir = high.dirs.memory as string;
    expect(Number(readFileSync(path.join(dir, support.version === 1 ? 'memory.limit_in_bytes' : 'memory.max'), 'utf8'))).toBe(
      128 * 1024 * 1024,
    );
    await removeLimitGroup(high);
    expect(existsSync(dir)).toBe(false);
  });

  it('removals of one group racing (stop and the exit listener) while a member dies all succeed', async () => {
    const ctx = makeContext(dirs.home);
    const group = limitGroupFor(
      makeSpec({ backend: 'bwrap', workspace: dirs.workspace, config: { pids_limit: 64, memory_limit: '64m' } }),
      ctx,
    );
    if (group === undefined) throw new Error('no limit group');
    for (let i = 0; i < 20; i++) {
      await prepareLimitGroup(group);
      const member = spawn('/bin/sleep', ['30'], { stdio: 'ignore' });
      for (const dir of new Set(Object.values(group.dirs))) writeFileSync(path.join(dir, 'cgroup.procs'), String(member.pid));
      await Promise.all([removeLimitGroup(group), removeLimitGroup(group), removeLimitGroup(group)]);
    }
    for (const dir of Object.values(group.dirs)) expect(existsSync(dir)).toBe(false);
  });

  it('a fork loop stops at pids_limit', async () => {
    // Each background sleep that forked bumps the count; the shell dies at the first fork the group refuses.
    const loop = 'i=0; while [ $i -lt 200 ]; do sleep 60 & i=$((i+1)); echo $i > /workspace/count; done; echo done > /workspace/end';
    const { handle: h } = await start(['/bin/sh', '-c', loop], { pids_limit: 16 });
    const exited = new Promise<void>((resolve) => h.onExit(() => resolve()));
    const count = Number(await waitForFile(path.join(dirs.workspace, 'count')));
    await h.stop({ graceMs: 200 });
    await exited;
    expect(count).toBeGreaterThan(0);
    expect(Number(readFileSync(path.join(dirs.workspace, 'count'), 'utf8'))).toBeLessThan(16);
    expect(existsSync(path.join(dirs.workspace, 'end'))).toBe(false);
  });

  it('a busy loop at cpu_limit 0.2 uses at most about a quarter of a core (cgroup cpu usage over a few seconds)', async () => {
    const { dirs: groupDirs } = await start(['/bin/sh', '-c', 'while :; do :; done'], { cpu_limit: 0.2 });
    const usageFile =
      support.version === 1
        ? path.join(groupDirs['cpuacct'] as string, 'cpuacct.usage')
        : path.join(groupDirs['cpu'] as string, 'cpu.stat');
    const usageNs = (): number => {
      const text = readFileSync(usageFile, 'utf8');
      return support.version === 1 ? Number(text.trim()) : Number(/^usage_usec (\d+)$/m.exec(text)?.[1]) * 1000;
    };
    await new Promise((r) => setTimeout(r, 500)); // the loop is running
    const [u0, t0] = [usageNs(), process.hrtime.bigint()];
    await new Promise((r) => setTimeout(r, CPU_SAMPLE_MS));
    const [u1, t1] = [usageNs(), process.hrtime.bigint()];
    const share = (u1 - u0) / Number(t1 - t0);
    console.log(`cpu_limit 0.2: busy loop used ${(share * 100).toFixed(1)} % of a core over ${Number(t1 - t0) / 1e6} ms`);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThanOrEqual(CPU_SHARE_MAX);
  });
});

describe('limits the host cannot enforce are refused at plan (never started unlimited)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let emptyRoot: string;
  beforeEach(() => {
    dirs = makeSandboxDirs();
    emptyRoot = mkdtempSync(path.join(os.tmpdir(), 'gs-no-cgroup-'));
  });
  afterEach(() => {
    dirs.cleanup();
    rmSync(emptyRoot, { recursive: true, force: true });
  });

  test.each([
    [{ memory_limit: '64m' }, ['memory_limit']],
    [{ pids_limit: 16 }, ['pids_limit']],
    [{ cpu_limit: 0.2 }, ['cpu_limit']],
    [{ memory_limit: '4m', pids_limit: 16, cpu_limit: 0.1 }, ['memory_limit', 'pids_limit', 'cpu_limit']],
  ])('bwrap %j on a cgroup root without controllers → limits_unsupported %j', (config, keys) => {
    const ctx = makeContext(dirs.home, { limitSupport: detectLimitSupport(emptyRoot) });
    const spec = makeSpec({ backend: 'bwrap', workspace: dirs.workspace, config });
    const { code, details } = refusal(RunnerError, () => createBwrapRunner().plan(spec, ctx));
    expect({ code, details }).toEqual({ code: 'limits_unsupported', details: { agent: 'agent1', keys } });
  });

  it('bwrap without limits still plans on that host', () => {
    const ctx = makeContext(dirs.home, { limitSupport: detectLimitSupport(emptyRoot) });
    const spec = makeSpec({ backend: 'bwrap', workspace: dirs.workspace });
    expect(() => createBwrapRunner().plan(spec, ctx)).not.toThrow();
  });
});
