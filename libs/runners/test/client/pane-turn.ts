/** One published client as a tmux agent: a turn delivered right after its start (the pane specs share it). */
import { chownSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { InnerRunner, RunnerHandle } from '../../src/lib/port';
import type { CodingClientName, InstalledClient } from '../../src/index';
import { readScreen } from '../../src/lib/client/screens/screen-rules';
import { CLIENT_SCREENS, defaultScreenRules, type ScreenRulesResolver } from '../../src/lib/client/screens/client-screens';
import { agentIdentityOf } from '../../src/lib/identity/agent-identity';
import type { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { waitFor } from '../tmux/tmux-support';
import { clientEnv, clientSpec, clientView, paneTurn, seedClientHome, type PaneWorld } from './pane-support';

export interface PaneTurnResult {
  readonly readyMs: number;
  readonly turnMs: number;
  readonly verdictAtReady: ReturnType<typeof readScreen>;
  readonly done: unknown;
  readonly screen: readonly string[];
}

/** Screen rules for a runner whose `command` agents run `client` with extra argv (clientSpec `args`). */
export function commandAs(client: CodingClientName): ScreenRulesResolver {
  return (name) => (name === 'command' ? CLIENT_SCREENS[client] : defaultScreenRules(name));
}

/**
 * Starts `client` in a pane (runner `runner`), delivers a turn at once (before its prompt is up), waits for its
 * readiness alongside, then for the receipt the mock's shell command writes. Stops the agent before returning.
 */
export async function runPaneTurn(
  world: PaneWorld,
  runner: ReturnType<typeof createTmuxRunner>,
  client: CodingClientName,
  installed: InstalledClient,
  inner: InnerRunner,
  args?: readonly string[],
): Promise<PaneTurnResult> {
  const agent = `${client}-${inner}`;
  const workspace = world.workspace(agent);
  const view = clientView(inner, workspace);
  await seedClientHome(world, client, 'sw', agent, view.workspace);
  const tmp = inner === 'none' ? world.workspace(`${agent}-tmp`) : undefined;
  const spec = clientSpec(world, client, installed.binary, {
    agent,
    backend: 'tmux',
    runner: inner,
    workspace,
    env: clientEnv(client, world.llm.url, tmp),
    ...(args === undefined ? {} : { args }),
  });
  const turnId = `t${client}${inner}`;
  const turnDir = path.join(workspace, '.genswarms', 'turns', turnId);
  mkdirSync(turnDir, { recursive: true, mode: 0o700 });
  const ids = agentIdentityOf(world.ctx);
  for (const dir of [path.join(workspace, '.genswarms'), path.join(workspace, '.genswarms', 'turns'), turnDir])
    chownSync(dir, ids.uid, ids.gid);
  const started = Date.now();
  const handle: RunnerHandle = await runner.start(runner.plan(spec, world.ctx), world.ctx);
  try {
    const delivered = handle.deliver(paneTurn(view.turns, turnId));
    const ready = await handle.waitUntilReady?.(new AbortController().signal);
    const readyMs = Date.now() - started;
    if (ready?.kind !== 'ready') throw new Error(`${client} was not ready: ${JSON.stringify(ready)}`);
    const verdictAtReady = readScreen(CLIENT_SCREENS[client], (await handle.captureScreen?.()) ?? []);
    await delivered;
    const doneFile = path.join(turnDir, 'done.json');
    await waitFor(() => (existsSync(doneFile) ? true : undefined), `${client} done.json`, { timeoutMs: 60_000 });
    return {
      readyMs,
      turnMs: Date.now() - started,
      verdictAtReady,
      done: JSON.parse(readFileSync(doneFile, 'utf8')) as unknown,
      screen: (await handle.captureScreen?.()) ?? [],
    };
  } finally {
    await handle.stop({ graceMs: 500 });
  }
}
