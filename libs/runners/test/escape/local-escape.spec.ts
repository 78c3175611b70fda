/**
 * A local client that escapes its process tree (setsid, a double fork with its own process group,
 * nohup) leaves nothing behind: not after stop, not after the agent is started again (restart, or
 * recovery after the server died), not after a recovery `reattach`. The mechanism is this host's
 * process tracking (docs/runners.md "Lifecycle"); with `none` the escape is a documented limit.
 */
import { createLocalRunner } from '../../src/index';
import type { RunnerContext, RunnerHandle } from '../../src/index';
import { makeContext, makeSandboxDirs, makeSpec } from '../support';
import { ESCAPES, escapingClient, killLeftSleeps, liveSleeps, uniqueSleepArg } from './escape-support';
import { waitFor } from '@genswarms/test-kit';

const dirs = makeSandboxDirs('gs-local-escape-');
const uniques: string[] = [];
const handles: RunnerHandle[] = [];
let agentSeq = 0;

afterAll(async () => {
  for (const h of handles) await h.stop({ graceMs: 200 });
  killLeftSleeps(uniques);
  dirs.cleanup();
});

async function startEscaping(
  ctx: RunnerContext,
  escapes: readonly ((u: string) => string)[],
  agent = `esc${++agentSeq}`,
): Promise<{ handle: RunnerHandle; marks: string[]; agent: string }> {
  const marks = escapes.map(() => uniqueSleepArg());
  uniques.push(...marks);
  const runner = createLocalRunner();
  const spec = makeSpec({
    workspace: dirs.workspace,
    agent,
    client: { command: escapingClient(escapes.map((e, i) => e(marks[i] as string))) },
  });
  const handle = await runner.start(runner.plan(spec, ctx), ctx);
  handles.push(handle);
  await waitFor(() => marks.every((m) => liveSleeps(m).length > 0), 'every escaping sleep to run');
  return { handle, marks, agent };
}

const tracked = makeContext(dirs.home).processTracking?.kind !== 'none';
const describeTracked = tracked ? describe : describe.skip;

describeTracked('local runner with cgroup tracking: no escaped process survives', () => {
  it.each(ESCAPES)('%s: gone after stop', async (_name, escape) => {
    const { handle, marks } = await startEscaping(makeContext(dirs.home), [escape]);
    await handle.stop({ graceMs: 300 });
    expect(marks.flatMap(liveSleeps)).toEqual([]);
  });

  it('gone when the agent starts again after its client died with the server (recovery, restart)', async () => {
    const ctx = makeContext(dirs.home);
    const first = await startEscaping(
      ctx,
      ESCAPES.map(([, e]) => e),
    );
    // What a SIGKILLed server leaves: the client died (pdeathsig), its escapees did not.
    process.kill(first.handle.describe().pid as number, 'SIGKILL');
    await waitFor(() => first.marks.every((m) => liveSleeps(m).length > 0), 'every escaping sleep of the first start to run');
    const second = await startEscaping(ctx, [ESCAPES[0]?.[1] as (u: string) => string], first.agent);
    expect(first.marks.flatMap(liveSleeps)).toEqual([]);
    await second.handle.stop({ graceMs: 300 });
    expect(second.marks.flatMap(liveSleeps)).toEqual([]);
  });

  it('a recovery reattach adopts nothing and kills what the dead instance left', async () => {
    const ctx = makeContext(dirs.home);
    const first = await startEscaping(
      ctx,
      ESCAPES.map(([, e]) => e),
    );
    const description = first.handle.describe();
    process.kill(description.pid as number, 'SIGKILL');
    expect(await createLocalRunner().reattach?.(description, ctx)).toBeNull();
    expect(first.marks.flatMap(liveSleeps)).toEqual([]);
  });
});

describe('local runner without cgroup tracking (none: best effort)', () => {
  it('still stops the client tree itself', async () => {
    const ctx = makeContext(dirs.home, { processTracking: { kind: 'none', reason: 'forced by the spec' } });
    const u = uniqueSleepArg();
    uniques.push(u);
    const runner = createLocalRunner();
    const spec = makeSpec({ workspace: dirs.workspace, agent: 'besteffort', client: { command: ['/bin/sh', '-c', `sleep ${u}\nexit 0`] } });
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    await waitFor(() => liveSleeps(u).length > 0, 'the sleep to run');
    await handle.stop({ graceMs: 300 });
    expect(liveSleeps(u)).toEqual([]);
  });
});
