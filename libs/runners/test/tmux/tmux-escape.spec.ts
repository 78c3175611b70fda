/**
 * A tmux `runner: none` client that escapes its pane's process tree (setsid, a double fork with its own
 * process group, nohup) leaves nothing behind: after stop, after a new orchestrator re-attached and
 * stopped it, and when its pane vanished while no orchestrator was there (docs/runners.md "Lifecycle").
 */
import type { RunnerHandle } from '../../src/lib/port';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import { ESCAPES, escapingClient, killLeftSleeps, liveSleeps, uniqueSleepArg } from '../escape/escape-support';
import { describeIfBinaries, makeTestEnv, tmuxSpec, type TmuxTestEnv } from './tmux-support';
import { waitFor } from '@genswarms/test-kit';

const ALL_ESCAPES = ESCAPES.map(([, e]) => e);

describeIfBinaries(['tmux', 'xargs'])('tmux runner none: no escaped process survives', () => {
  let env: TmuxTestEnv;
  const runner = createTmuxRunner();
  const uniques: string[] = [];
  let seq = 0;

  beforeAll(async () => {
    env = await makeTestEnv('escape');
  });
  afterAll(async () => {
    await (await runner.server(env.ctx)).kill();
    killLeftSleeps(uniques);
    await env.cleanup();
  });

  const tracked = (): boolean => env.ctx.processTracking !== undefined && env.ctx.processTracking.kind !== 'none';

  async function startEscaping(escapes: readonly ((u: string) => string)[]): Promise<{ handle: RunnerHandle; marks: string[] }> {
    const marks = escapes.map(() => uniqueSleepArg());
    uniques.push(...marks);
    const spec = tmuxSpec(env, `esc${++seq}`, escapingClient(escapes.map((e, i) => e(marks[i] as string))));
    const handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
    await waitFor(() => marks.every((m) => liveSleeps(m).length > 0), 'every escaping sleep to run');
    return { handle, marks };
  }

  it.each(ESCAPES)('%s: gone after stop', async (_name, escape) => {
    if (!tracked()) return; // `none`: best effort, the documented limit
    const { handle, marks } = await startEscaping([escape]);
    await handle.stop({ graceMs: 300 });
    expect(marks.flatMap(liveSleeps)).toEqual([]);
  });

  it('gone after a new orchestrator re-attached the pane and stopped it (server restart)', async () => {
    if (!tracked()) return;
    const { handle, marks } = await startEscaping(ALL_ESCAPES);
    const description = handle.describe();
    const second = createTmuxRunner({ server: await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' }) });
    const again = await second.reattach?.(description, env.ctx);
    expect(again).not.toBeNull();
    await again?.stop({ graceMs: 300 });
    expect(marks.flatMap(liveSleeps)).toEqual([]);
    await (await second.server(env.ctx)).close();
  });

  it('gone when the pane vanished while no orchestrator watched (re-attach finds no pane)', async () => {
    if (!tracked()) return;
    const { handle, marks } = await startEscaping(ALL_ESCAPES);
    const description = handle.describe();
    const server = await runner.server(env.ctx);
    const pane = await server.findPane('sw', description.tmuxTarget?.split(':=')[1] ?? '');
    await server.killWindow(pane?.paneId); // the pane's client gets SIGHUP; the escapees do not care
    await waitFor(() => marks.every((m) => liveSleeps(m).length > 0), 'every escaping sleep to run');
    const second = createTmuxRunner({ server: await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' }) });
    expect(await second.reattach?.(description, env.ctx)).toBeNull();
    expect(marks.flatMap(liveSleeps)).toEqual([]);
    await (await second.server(env.ctx)).close();
  });
});
