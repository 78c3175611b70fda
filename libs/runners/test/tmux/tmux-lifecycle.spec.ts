import { existsSync, promises as fsp, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, NetworkMode, RunnerHandle } from '../../src/lib/port';
import { RunnerError } from '../../src/lib/errors/runner-error';
import { isProcessAlive } from '../../src/lib/process/process-tree';
import { tmuxAttachArgv } from '../../src/lib/tmux/attach-argv';
import { LAUNCHER_PATH } from '../../src/lib/launcher/launcher';
import { createTmuxRunner, type TmuxInnerRunner } from '../../src/lib/tmux/tmux-runner';
import { TmuxServer } from '../../src/lib/tmux/tmux-server';
import {
  describeIfBinaries,
  ECHO_ARGV,
  FAKE_TUI,
  makeTestEnv,
  NODE,
  readEchoReport,
  tmuxSpec,
  waitFor,
  type TmuxTestEnv,
} from './tmux-support';

describeIfBinaries(['tmux', 'xargs', 'bwrap'])('tmux runner: plan refusals, teardown, crashes, re-attach', () => {
  let env: TmuxTestEnv;
  const runner = createTmuxRunner();

  beforeAll(async () => {
    env = await makeTestEnv('life');
  });
  afterAll(async () => {
    await (await runner.server(env.ctx)).kill();
    await env.cleanup();
  });

  async function workspaceFor(agent: string): Promise<string> {
    const ws = path.join(env.workspace, agent);
    await fsp.mkdir(ws, { recursive: true });
    return ws;
  }

  const planCode = (spec: AgentLaunchSpec): string | undefined => {
    try {
      runner.plan(spec, env.ctx);
      return undefined;
    } catch (err) {
      return err instanceof RunnerError ? err.code : 'other';
    }
  };

  it.each([
    ['none', 'open', undefined],
    ['none', 'none', 'unsupported_network'],
    ['none', 'isolated', 'unsupported_network'],
    ['none', { named: 'web' }, 'unsupported_network'],
    ['bwrap', 'open', undefined],
    ['bwrap', 'none', undefined],
    ['bwrap', 'isolated', 'unsupported_network'],
    ['bwrap', { named: 'web' }, 'unsupported_network'],
  ] as const)('runner %s with network %j plans → %s', (runnerKind, network, code) => {
    const spec = { ...tmuxSpec(env, 'net', [NODE, ECHO_ARGV]), runner: runnerKind, network: network as NetworkMode };
    expect(planCode(spec)).toBe(code);
  });

  it('refuses the headless genswarms-agent client (validation_failed)', () => {
    expect(planCode({ ...tmuxSpec(env, 'agent', [NODE]), client: 'genswarms-agent' })).toBe('validation_failed');
  });

  it.each([
    ["quote'd", 'unsafe_bind'],
    ['new\nline', 'unsafe_workspace'],
    ['tab\there', 'unsafe_bind'],
  ])('refuses a workspace tmux cannot quote (%j → %s)', async (name, code) => {
    const ws = path.join(env.workspace, name);
    await fsp.mkdir(ws);
    expect(planCode({ ...tmuxSpec(env, 'ws', [NODE, ECHO_ARGV]), workspace: ws })).toBe(code);
  });

  it('stop kills the pane process tree, removes the window, the manifest and the env file', async () => {
    const ws = await workspaceFor('stopper');
    const handle = await runner.start(runner.plan({ ...tmuxSpec(env, 'stopper', [NODE, ECHO_ARGV]), workspace: ws }, env.ctx), env.ctx);
    const report = await readEchoReport(ws);
    const panePid = handle.describe().pid ?? -1;
    const server = await runner.server(env.ctx);
    const manifestDir = path.join(env.home, 'manifests', 'sw', 'stopper');
    expect(readdirSync(manifestDir)).toHaveLength(1);
    expect(await handle.health()).toBe('running');
    const exits: Array<[number | null, string | null]> = [];
    handle.onExit((code, signal) => exits.push([code, signal]));
    await handle.stop({ graceMs: 1000 });
    expect(isProcessAlive(report.pid)).toBe(false);
    expect(isProcessAlive(panePid)).toBe(false);
    expect(await server.findPane('sw', 'stopper')).toBeUndefined();
    expect(readdirSync(manifestDir)).toEqual([]);
    expect(existsSync(path.join(handle.describe().stateDir, '.genswarms', 'env'))).toBe(false);
    expect(await handle.health()).toBe('exited');
    expect(exits).toHaveLength(1);
  });

  it('reports a crashing client as exited with its code, once, and never respawns it', async () => {
    const ws = await workspaceFor('crasher');
    const spec = { ...tmuxSpec(env, 'crasher', [NODE, FAKE_TUI, '--crash-after-ms', '200']), workspace: ws };
    const handle = await runner.start(runner.plan(spec, env.ctx), env.ctx);
    const exits: Array<[number | null, string | null]> = [];
    handle.onExit((code, signal) => exits.push([code, signal]));
    await waitFor(() => (exits.length > 0 ? true : undefined), 'exit');
    // xargs maps a command exit status 1-125 to 123 (xargs(1)); the client's own code is not visible.
    // tmux may mark the pane dead before it reaps xargs (pane_dead_status still empty): the runner
    // then reads the status the kernel holds for the zombie, so the code is exact either way.
    expect(exits).toEqual([[123, null]]);
    expect(await handle.health()).toBe('exited');
    const server = await runner.server(env.ctx);
    const pane = await server.findPane('sw', 'crasher');
    expect(pane).toMatchObject({ dead: true, panePid: handle.describe().pid });
    await new Promise((r) => setTimeout(r, 1200)); // two poll periods: still the same dead pane
    // tmux may fill its own pane_dead_status meanwhile; the pane itself is the same and still dead
    expect(await server.findPane('sw', 'crasher')).toMatchObject({ dead: true, paneId: pane?.paneId, panePid: handle.describe().pid });
    expect(exits).toHaveLength(1);
    await handle.stop({ graceMs: 200 });
    expect(await server.findPane('sw', 'crasher')).toBeUndefined();
  });

  it('re-attaches to a pane after the control client (orchestrator) went away', async () => {
    const ws = await workspaceFor('survivor');
    const spec = { ...tmuxSpec(env, 'survivor', [NODE, FAKE_TUI, '--report', path.join(ws, 'r.json')]), workspace: ws };
    const first = await runner.start(runner.plan(spec, env.ctx), env.ctx);
    await waitFor(() => (existsSync(path.join(ws, 'r.json')) ? true : undefined), 'fake-tui started (raw mode)');
    const description = first.describe();
    // A second orchestrator on the same home: its own control client; the first detaches.
    const second = createTmuxRunner({ server: await TmuxServer.open({ home: env.home, tmux: '/usr/bin/tmux' }) });
    await (await runner.server(env.ctx)).close();
    const again = await second.reattach?.(description, env.ctx);
    expect(again).not.toBeNull();
    const handle = again as RunnerHandle;
    expect(await handle.health()).toBe('running');
    const lines: string[] = [];
    handle.onOutput((_s, l) => lines.push(l));
    const turnsDir = path.join(ws, '.genswarms', 'turns');
    await handle.deliver({ turnId: 'after-restart', seq: 1, from: '_operator', content: 'still there?', clientTurnsDir: turnsDir });
    await waitFor(() => (existsSync(path.join(turnsDir, 'after-restart', 'done.json')) ? true : undefined), 'receipt');
    await waitFor(() => (lines.some((l) => l.includes('answered turn after-restart')) ? true : undefined), 'output line');
    expect(await second.reattach?.({ ...description, pid: 1 }, env.ctx)).toBeNull(); // another pid: not ours
    await handle.stop({ graceMs: 500 });
    expect(await second.reattach?.(description, env.ctx)).toBeNull();
    await (await second.server(env.ctx)).close();
  });

  it('refuses runner docker without a docker inner runner (validation_failed)', () => {
    expect(planCode({ ...tmuxSpec(env, 'dock', [NODE, ECHO_ARGV]), runner: 'docker' })).toBe('validation_failed');
  });

  it('runs a pluggable inner runner (tmux+docker hook): its entry/words in the pane, its cleanup at stop', async () => {
    const ws = await workspaceFor('inner');
    const calls: string[] = [];
    const inner: TmuxInnerRunner = {
      plan: (_spec, _ctx, base) => {
        calls.push(`plan:${base.env['GENSWARMS_WORKSPACE'] ?? ''}`);
        return { ...base, env: { ...base.env, GENSWARMS_WORKSPACE: ws } };
      },
      prepare: async (plan) => {
        calls.push('prepare');
        return {
          entry: LAUNCHER_PATH,
          words: [path.join(plan.stateDir, '.genswarms', 'env'), NODE, ECHO_ARGV, 'via-inner'],
          cleanup: async () => void calls.push('cleanup'),
        };
      },
    };
    const withInner = createTmuxRunner({ server: await runner.server(env.ctx), docker: inner });
    const spec = { ...tmuxSpec(env, 'inner', [NODE]), runner: 'docker' as const, workspace: ws };
    const handle = await withInner.start(withInner.plan(spec, env.ctx), env.ctx);
    expect((await readEchoReport(ws)).argv).toEqual(['via-inner']);
    await handle.stop({ graceMs: 500 });
    expect(calls).toEqual(['plan:/workspace', 'prepare', 'cleanup']);
  });

  it('builds the read-only attach argv (docs/cli.md)', () => {
    expect(tmuxAttachArgv('/h', 'sw', 'coder')).toEqual(['tmux', '-S', '/h/tmux/tmux.sock', 'attach-session', '-r', '-t', '=sw:=coder']);
    expect(tmuxAttachArgv('/h', 'sw', 'coder', true)).toEqual(['tmux', '-S', '/h/tmux/tmux.sock', 'attach-session', '-t', '=sw:=coder']);
    expect(() => tmuxAttachArgv('/h', 'sw;x', 'coder')).toThrow(RunnerError);
  });
});
