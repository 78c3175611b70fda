/**
 * The uid rule for unsandboxed agents of a root server (local, tmux runner `none`): the client runs as
 * the agent uid with no supplementary groups, reaches its own state_dir and default workspace below
 * $GENSWARMS_HOME, and cannot list or read the database, the tmux directory, home itself or a
 * server-owned agent directory. Real processes, real tmux.
 */
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext, RunnerHandle } from '../../src/index';
import { createLocalRunner, createTmuxRunner, ensurePrivateDir } from '../../src/index';
import { ensureWorkspaceDir } from '../../src/lib/state/skills-links';
import { FIXTURES, makeContext, makeSandboxDirs, makeSpec, readJsonIfWritten } from '../support';
import { waitFor } from '../docker/docker-support';
import { missingBinaries } from '../tmux/tmux-support';

const AGENT = { uid: 4711, gid: 4712 };
const PROBE = path.join(FIXTURES, 'probe-reach.js');
const isRoot = process.getuid?.() === 0;

interface Reach {
  pid: number;
  uidLine: string;
  groupsLine: string;
  list: Record<string, string>;
  read: Record<string, string>;
  homeWrite: string;
  workspaceWrite: string;
}

/** A home laid out like a server's: the database (0600), tmux/ (0700), a server-owned agent state dir. */
function layHome(home: string): { listed: string[]; read: string[] } {
  writeFileSync(path.join(home, 'genswarms.db'), 'SQLite format 3', { mode: 0o600 });
  mkdirSync(path.join(home, 'tmux'), { mode: 0o700 });
  writeFileSync(path.join(home, 'tmux', 'tmux.sock'), '', { mode: 0o600 });
  mkdirSync(path.join(home, 'state', 'other', 'peer'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(home, 'state', 'other', 'peer', 'auth.json'), 'token', { mode: 0o600 });
  const listed = [
    home,
    path.join(home, 'tmux'),
    path.join(home, 'state'),
    path.join(home, 'state', 'sw'),
    path.join(home, 'state', 'other', 'peer'),
    path.join(home, 'workspaces'),
  ];
  const read = [
    path.join(home, 'genswarms.db'),
    path.join(home, 'tmux', 'tmux.sock'),
    path.join(home, 'state', 'other', 'peer', 'auth.json'),
  ];
  return { listed, read };
}

function expectConfined(reach: Reach, probes: { listed: string[]; read: string[] }): void {
  expect(reach.uidLine).toBe(`Uid:\t${AGENT.uid}\t${AGENT.uid}\t${AGENT.uid}\t${AGENT.uid}`);
  expect(reach.groupsLine.trim()).toBe('Groups:'); // --clear-groups: not even root's group
  expect(reach).toMatchObject({ homeWrite: 'ok', workspaceWrite: 'ok' });
  for (const p of probes.listed) expect([p, reach.list[p]]).toEqual([p, 'EACCES']);
  for (const p of probes.read) expect([p, reach.read[p]]).toEqual([p, 'EACCES']);
  // the host's view of the same process
  const status = readFileSync(`/proc/${reach.pid}/status`, 'utf8');
  expect(status).toContain(`Uid:\t${AGENT.uid}\t${AGENT.uid}\t${AGENT.uid}\t${AGENT.uid}`);
  expect(status).toContain(`Gid:\t${AGENT.gid}\t${AGENT.gid}\t${AGENT.gid}\t${AGENT.gid}`);
}

async function reachOf(workspace: string): Promise<Reach> {
  return waitFor(() => readJsonIfWritten<Reach>(path.join(workspace, 'reach.json')), 'reach.json', { timeoutMs: 20_000 });
}

(isRoot ? describe : describe.skip)('uid rule: unsandboxed agents of a root server', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let ctx: RunnerContext;
  let probes: { listed: string[]; read: string[] };
  let handle: RunnerHandle | undefined;

  beforeEach(() => {
    dirs = makeSandboxDirs('gs-uid-local-');
    ctx = makeContext(dirs.home, { agentUid: AGENT.uid, agentGid: AGENT.gid });
    probes = layHome(ctx.home);
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 500 });
    handle = undefined;
    dirs.cleanup();
  });

  const specFor = (backend: 'local' | 'tmux', workspace: string) =>
    makeSpec({
      swarm: 'sw',
      agent: 'me',
      backend,
      ...(backend === 'tmux' ? { runner: 'none' as const } : {}),
      workspace,
      client: { command: [process.execPath, PROBE] },
      config: { env: { PROBE_LIST: probes.listed.join(':'), PROBE_READ: probes.read.join(':') } },
    });

  it('local: runs the client as the agent uid, confined to its own directories below home', async () => {
    const workspace = path.join(ctx.home, 'workspaces', 'sw', 'me');
    const runner = createLocalRunner();
    handle = await runner.start(runner.plan(specFor('local', workspace), ctx), ctx);
    const reach = await reachOf(workspace);
    expect(reach.pid).toBe(handle.describe().pid);
    expectConfined(reach, probes);
    expect(statSync(path.join(handle.describe().stateDir, 'probe-home')).uid).toBe(AGENT.uid);
    expect(statSync(ctx.home).mode & 0o777).toBe(0o710); // search by name for the agent group, no listing
    expect(statSync(path.join(ctx.home, 'tmux')).mode & 0o777).toBe(0o700);
  });

  (missingBinaries(['tmux', 'xargs']).length === 0 ? it : it.skip)(
    'tmux runner none: the pane drops to the agent uid after xargs',
    async () => {
      const workspace = path.join(ctx.home, 'workspaces', 'sw', 'me');
      const runner = createTmuxRunner();
      try {
        handle = await runner.start(runner.plan(specFor('tmux', workspace), ctx), ctx);
        expectConfined(await reachOf(workspace), probes);
      } finally {
        await handle?.stop({ graceMs: 200 });
        handle = undefined;
        await (await runner.server(ctx)).kill();
      }
    },
  );

  it('refuses a workspace outside home that the agent uid cannot reach (unsafe_workspace), and starts nothing', async () => {
    const hidden = path.join(dirs.root, 'private');
    mkdirSync(path.join(hidden, 'ws'), { recursive: true, mode: 0o700 });
    const runner = createLocalRunner();
    const plan = runner.plan(specFor('local', path.join(hidden, 'ws')), ctx);
    await expect(runner.start(plan, ctx)).rejects.toMatchObject({ code: 'unsafe_workspace' });
    expect(statSync(hidden).mode & 0o777).toBe(0o700); // the operator's directory is never re-moded
  });

  it('refuses when GENSWARMS_HOME itself sits below a directory the agent uid cannot search (state_dir_unsafe)', async () => {
    const closed = path.join(dirs.root, 'closed');
    mkdirSync(path.join(closed, 'home'), { recursive: true, mode: 0o700 }); // like root's own 0700 home directory
    const inner = makeContext(path.join(closed, 'home'), { agentUid: AGENT.uid, agentGid: AGENT.gid });
    const runner = createLocalRunner();
    const plan = runner.plan(specFor('local', path.join(inner.home, 'workspaces', 'sw', 'me')), inner);
    await expect(runner.start(plan, inner)).rejects.toMatchObject({ code: 'state_dir_unsafe' });
    expect(statSync(closed).mode & 0o777).toBe(0o700);
  });

  it('never hands over a directory reached through a link: a workspace path whose parent became a symlink → unsafe_workspace', async () => {
    const real = path.join(dirs.root, 'real');
    mkdirSync(path.join(real, 'ws'), { recursive: true, mode: 0o700 }); // root's, like any root-owned directory a link could aim at
    symlinkSync(real, path.join(dirs.root, 'link'));
    const owners = { serverUid: 0, agent: AGENT };
    await expect(ensureWorkspaceDir(path.join(dirs.root, 'link', 'ws'), owners, [dirs.root])).rejects.toMatchObject({
      code: 'unsafe_workspace',
    });
    expect(statSync(path.join(real, 'ws')).uid).toBe(0);
    await expect(ensurePrivateDir(path.join(dirs.root, 'link', 'ws'), 0, AGENT)).rejects.toMatchObject({ code: 'state_dir_unsafe' });
    expect(statSync(path.join(real, 'ws')).uid).toBe(0);
  });

  it("refuses a root server's local agent when setpriv is missing (binary_missing), before anything exists", () => {
    const noSetpriv: RunnerContext = { ...ctx, binaries: { node: ctx.binaries.node } };
    expect(() => createLocalRunner().plan(specFor('local', dirs.workspace), noSetpriv)).toThrow(
      expect.objectContaining({ code: 'binary_missing' }),
    );
  });
});
