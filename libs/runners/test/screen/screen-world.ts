/** A tmux runner with fake-tui's screen rules and one helper per step the screen specs repeat. */
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { RunnerHandle, TurnDelivery } from '../../src/lib/port';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { FAKE_TUI, makeTestEnv, NODE, tmuxSpec, waitFor, type TmuxTestEnv } from '../tmux/tmux-support';
import { fakeTuiScreens } from './fake-tui-screen';

/** fake-tui's `--report` in prompt mode (tools/bin/fake-tui.js). */
export interface FakeTuiReport {
  readonly submissions: string[];
  readonly dialogAnswers: number;
  readonly discarded: number;
}

export interface ScreenWorld {
  readonly env: TmuxTestEnv;
  /** Starts fake-tui as agent `agent` with `options` (and `--report`); the workspace is the agent's own. */
  start(agent: string, options: readonly string[]): Promise<RunnerHandle>;
  /** The turn docs/messaging.md pastes, for `agent`'s workspace. */
  turn(agent: string, turnId: string, content?: string): TurnDelivery;
  /** Resolves with done.json's content once the agent wrote it. */
  done(agent: string, turnId: string): Promise<unknown>;
  report(agent: string): Promise<FakeTuiReport>;
  close(): Promise<void>;
}

export async function makeScreenWorld(prefix: string): Promise<ScreenWorld> {
  const env = await makeTestEnv(prefix);
  const runner = createTmuxRunner({ screens: fakeTuiScreens });
  const handles: RunnerHandle[] = [];
  const workspaceOf = (agent: string): string => path.join(env.workspace, agent);
  return {
    env,
    async start(agent, options) {
      await fsp.mkdir(workspaceOf(agent), { mode: 0o711 });
      const report = path.join(workspaceOf(agent), 'fake-tui.json');
      const spec = { ...tmuxSpec(env, agent, [NODE, FAKE_TUI, '--report', report, ...options]), workspace: workspaceOf(agent) };
      const handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
      handles.push(handle);
      return handle;
    },
    turn: (agent, turnId, content = `task ${turnId}`) => ({
      turnId,
      seq: 1,
      from: '_operator',
      content,
      clientTurnsDir: path.join(workspaceOf(agent), '.genswarms', 'turns'),
    }),
    async done(agent, turnId) {
      const file = path.join(workspaceOf(agent), '.genswarms', 'turns', turnId, 'done.json');
      return JSON.parse(await waitFor(async () => (existsSync(file) ? fsp.readFile(file, 'utf8') : undefined), `${turnId} done.json`));
    },
    async report(agent) {
      return JSON.parse(await fsp.readFile(path.join(workspaceOf(agent), 'fake-tui.json'), 'utf8')) as FakeTuiReport;
    },
    async close() {
      for (const h of handles) await h.stop({ graceMs: 200 });
      await (await runner.server(env.ctx)).kill();
      await env.cleanup();
    },
  };
}
