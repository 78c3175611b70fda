import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { RunnerHandle } from '../../src/lib/port';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { describeIfBinaries } from '../tmux/tmux-support';
import { clientUnderTest } from './real-client-support';
import { clientEnv, clientSpec, makePaneWorld, paneTurn, seedClientHome, type PaneWorld } from './pane-support';

jest.setTimeout(90_000);

/** The process under `root` (the pane's first process) that runs `binary`: the client itself. */
function descendantRunning(root: number, binary: string): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // expected: it exited while we looked
    }
  }
  const under = (pid: number): boolean => pid === root || (pid > 1 && under(parents.get(pid) ?? 0));
  for (const pid of parents.keys()) {
    let exe = '';
    try {
      exe = readlinkSync(`/proc/${pid}/exe`);
    } catch {
      continue; // expected: gone, or not ours to read
    }
    if (exe === binary && under(pid)) return pid;
  }
  throw new Error(`no process runs ${binary} under ${root}`);
}

const codex = clientUnderTest('codex');
const claude = clientUnderTest('claude');

// A published client that shows a screen waiting for a person is reported with its last lines, and nothing is
// pasted into it; a client that dies leaves its last screen readable.
describeIfBinaries(['tmux', 'xargs'])('published clients in a tmux pane: stuck and dead clients', () => {
  let world: PaneWorld;
  const runner = createTmuxRunner();
  const handles: RunnerHandle[] = [];
  beforeAll(async () => {
    world = await makePaneWorld('pane-blocked');
  });
  afterAll(async () => {
    for (const h of handles) await h.stop({ graceMs: 200 });
    await (await runner.server(world.ctx)).kill();
    await world.cleanup();
  });

  (('skip' in codex ? it.skip : it) as jest.It)(
    'Codex without a provider shows its sign-in menu: blocked, and the turn is not pasted into it',
    async () => {
      if ('skip' in codex) return;
      const workspace = world.workspace('signin');
      const tmp = world.workspace('signin-tmp');
      const spec = clientSpec(world, 'codex', codex.client.binary, {
        agent: 'signin',
        backend: 'tmux',
        runner: 'none',
        workspace,
        env: clientEnv('codex', world.llm.url, tmp),
      });
      // no endpoint at all: the adapter then writes no provider and Codex keeps its vendor default (sign-in)
      const { defaultEndpoint: _none, ...llm } = world.ctx.llm;
      const ctx = { ...world.ctx, llm };
      const { apiKey: _key, ...keyless } = spec;
      const handle = await runner.start(runner.plan(keyless, ctx), ctx);
      handles.push(handle);
      const ready = await handle.waitUntilReady?.(new AbortController().signal);
      expect(ready).toEqual({
        kind: 'blocked',
        dialog: 'codex_sign_in',
        lastLines: expect.arrayContaining([expect.stringContaining('Sign in with ChatGPT')]),
      });
      const err = await handle.deliver(paneTurn(`${workspace}/.genswarms/turns`, 'tsignin')).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RunnerError);
      expect([(err as RunnerError).code, (err as RunnerError).details?.['dialog']]).toEqual(['client_prompt_blocked', 'codex_sign_in']);
      // still the menu: Enter would have picked "Sign in with ChatGPT"
      expect((await handle.captureScreen?.())?.join('\n')).toContain('Choose how you want to use Codex');
      expect(world.llm.requests).toEqual([]);
    },
  );

  (('skip' in claude ? it.skip : it) as jest.It)(
    'Claude Code killed: its exit is reported and its last screen stays readable',
    async () => {
      if ('skip' in claude) return;
      const workspace = world.workspace('killed');
      await seedClientHome(world, 'claude', 'sw', 'killed', workspace);
      const spec = clientSpec(world, 'claude', claude.client.binary, { agent: 'killed', backend: 'tmux', runner: 'none', workspace });
      const handle = await runner.start(runner.plan(spec, world.ctx), world.ctx);
      handles.push(handle);
      expect(await handle.waitUntilReady?.(new AbortController().signal)).toEqual({ kind: 'ready', waitedMs: expect.any(Number) });
      const exited = new Promise<string | null>((resolve) => handle.onExit((_code, signal) => resolve(signal)));
      process.kill(descendantRunning(handle.describe().pid ?? 0, claude.client.binary), 'SIGKILL');
      await exited;
      expect(await handle.health()).toBe('exited');
      expect((await handle.captureScreen?.())?.join('\n')).toContain('Claude Code v');
    },
  );
});
