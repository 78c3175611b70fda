/**
 * End to end through the engine: a bwrap agent whose client outgrows memory_limit is OOM-killed and fails with
 * reason `oom_killed` (not a bare process exit); a running limited bwrap agent's status carries the isolation
 * block read from its live process, with the limits in force and no difference from its plan. Needs bwrap and
 * the memory and pids cgroup controllers (root on v1, or a delegated v2 subtree): skipped with a reason otherwise.
 */
import * as fs from 'node:fs';
import { detectLimitSupport } from '@genswarms/runners';
import { makeHarness, waitEvent, waitFor, type Harness } from './harness';

const support = detectLimitSupport();
const ready =
  ['/usr/bin/bwrap', '/bin/bwrap'].some((p) => fs.existsSync(p)) && support.bases.memory !== undefined && support.bases.pids !== undefined;
const suite = ready ? describe : describe.skip;
if (!ready) console.warn(`SKIPPED engine-bwrap-limits: needs bwrap and memory, pids cgroups (${support.reasons.join('; ')})`);

const HOG = 'const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1));';

suite('bwrap limits through the engine (real bubblewrap, real cgroups)', () => {
  let h: Harness | undefined;
  afterEach(() => h?.cleanup());

  const agent = (name: string, command: string[], config: Record<string, unknown>): Record<string, unknown> => ({
    name,
    backend: 'bwrap',
    network: 'none',
    client: { command },
    config,
  });

  it('a client over memory_limit fails with reason oom_killed', async () => {
    h = await makeHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [agent('hog', [process.execPath, '-e', HOG], { memory_limit: '64m' })] } });
    const failed = await waitEvent(h.engine, 's', (e) => e.event_type === 'agent_failed', 'agent_failed');
    expect(failed.metadata).toMatchObject({ reason: 'oom_killed' });
    expect((await h.engine.getAgent('s', 'hog')).failure?.code).toBe('oom_killed');
  });

  it("a running limited agent's status carries the isolation read from its process", async () => {
    h = await makeHarness();
    await h.engine.startSwarm({
      config: { name: 's', agents: [agent('calm', ['/bin/sh', '-c', 'sleep 60'], { pids_limit: 32, memory_limit: '128m' })] },
    });
    const status = await waitFor(async () => {
      const st = await h?.engine.getAgent('s', 'calm');
      return st?.isolation !== null && st?.isolation !== undefined ? st : undefined;
    }, 'isolation');
    expect(status.state).toBe('idle');
    expect(status.isolation).toMatchObject({
      network: 'loopback',
      no_new_privs: true,
      limits: { pids: 32, memory_bytes: 128 * 1024 * 1024 },
      mounts: { workspace: 'rw', state_dir: 'rw', host_root_visible: false },
      differences: [],
    });
    expect(status.isolation?.namespaces).toEqual(expect.arrayContaining(['mnt', 'net', 'pid', 'user']));
  });
});
