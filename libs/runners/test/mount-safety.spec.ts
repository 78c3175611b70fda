/**
 * The one mount-safety rule (docs/security.md#10-agent-runners-and-sandboxes "Host paths entering a sandbox"): every operator-named
 * host path × every hostile target is refused at plan by every sandboxing runner, and again at start when
 * the path was swapped after plan.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import type { AgentLaunchSpec, BackendConfig, LaunchPlan, Runner, RunnerContext } from '../src/index';
import { createBwrapRunner, createDockerRunner, createTmuxDockerRunner, createTmuxRunner, isRunnerError } from '../src/index';
import type { DockerPort } from '../src/index';
import { makeContext, makeSandboxDirs, makeSpec } from './support';

type Dirs = ReturnType<typeof makeSandboxDirs> & { otherWs: string };
type Source = 'skill' | 'extra_ro_binds' | 'extra_rw_binds' | 'extra_path' | 'agent_binary_path';

/** Hostile targets: [name, the path an operator writes]. `file` picks a regular file where one is needed. */
const TARGETS: readonly (readonly [string, (d: Dirs, file: boolean) => string])[] = [
  ['inside GENSWARMS_HOME', (d, file) => (file ? path.join(d.home, 'genswarms.db') : path.join(d.home, 'tmux'))],
  ['GENSWARMS_HOME itself', (d) => d.home],
  ['a directory containing GENSWARMS_HOME', (d) => d.root],
  ['a symlink into GENSWARMS_HOME', (d, file) => (file ? path.join(d.root, 'link-db') : path.join(d.root, 'link-state'))],
  ['a unix socket', (d) => path.join(d.root, 'plain.sock')],
  ['a FIFO', (d) => path.join(d.root, 'fifo')],
  ["another agent's state dir", (d, file) => path.join(d.home, 'state', 'swarm1', 'other', ...(file ? ['auth.json'] : []))],
  ["another agent's workspace", (d, file) => (file ? path.join(d.otherWs, 'tool') : d.otherWs)],
  ['/', () => '/'],
  ['/proc', (_d, file) => (file ? '/proc/version' : '/proc')],
  ['/run', () => '/run'],
  ['/var/run (real path /run)', () => '/var/run'],
];
const SOURCES: readonly Source[] = ['skill', 'extra_ro_binds', 'extra_rw_binds', 'extra_path', 'agent_binary_path'];

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

function makeHostileDirs(): Dirs {
  const d = makeSandboxDirs('gs-mountsafety-');
  const otherWs = path.join(d.root, 'other-ws');
  for (const dir of [path.join(d.home, 'tmux'), path.join(d.home, 'state', 'swarm1', 'other'), otherWs])
    mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(d.home, 'genswarms.db'), 'db');
  writeFileSync(path.join(d.home, 'state', 'swarm1', 'other', 'auth.json'), '{}');
  writeFileSync(path.join(otherWs, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  symlinkSync(path.join(d.home, 'state'), path.join(d.root, 'link-state'));
  symlinkSync(path.join(d.home, 'genswarms.db'), path.join(d.root, 'link-db'));
  const server = createServer();
  server.listen(path.join(d.root, 'plain.sock'));
  servers.push(server);
  expect(spawnSync('/usr/bin/mkfifo', [path.join(d.root, 'fifo')], { shell: false }).status).toBe(0);
  return { ...d, otherWs };
}

/** The context the engine would give: other agents' workspaces are protected paths. */
function contextFor(d: Dirs): RunnerContext {
  const ctx = makeContext(d.home);
  return { ...ctx, protectedPaths: () => [d.otherWs, path.join(d.home, 'state', 'swarm1', 'other')] };
}

function configFor(source: Exclude<Source, 'skill'>, hostPath: string): BackendConfig {
  switch (source) {
    case 'extra_ro_binds':
      return { extra_ro_binds: [[hostPath, '/opt/hostile']] };
    case 'extra_rw_binds':
      return { extra_rw_binds: [[hostPath, '/opt/hostile']] };
    case 'extra_path':
      return { extra_path: [hostPath] };
    case 'agent_binary_path':
      return { agent_binary_path: hostPath };
  }
}

interface RunnerCase {
  readonly runner: Runner;
  readonly spec: Partial<AgentLaunchSpec>;
}
const RUNNERS: readonly (readonly [string, RunnerCase])[] = [
  ['bwrap', { runner: createBwrapRunner(), spec: { backend: 'bwrap', network: 'none' } }],
  [
    'docker',
    { runner: createDockerRunner(), spec: { backend: 'docker', network: 'none', client: { command: ['/usr/bin/node', '-e', '1'] } } },
  ],
  [
    'tmux+bwrap',
    {
      runner: createTmuxRunner(),
      spec: { backend: 'tmux', runner: 'bwrap', network: 'none', client: { command: ['/usr/bin/node', '-e', '1'] } },
    },
  ],
  [
    'tmux+docker',
    {
      runner: createTmuxRunner({ docker: createTmuxDockerRunner() }),
      spec: { backend: 'tmux', runner: 'docker', network: 'none', client: { command: ['/usr/bin/node', '-e', '1'] } },
    },
  ],
];

function specFor(d: Dirs, rc: RunnerCase, source: Source, hostPath: string): AgentLaunchSpec {
  const base = makeSpec({ workspace: d.workspace, ...rc.spec });
  return source === 'skill' ? { ...base, skills: [hostPath] } : { ...base, config: configFor(source, hostPath) };
}

function planError(rc: RunnerCase, spec: AgentLaunchSpec, ctx: RunnerContext): { code: string; details: unknown } | undefined {
  try {
    rc.runner.plan(spec, ctx);
    return undefined;
  } catch (err) {
    return isRunnerError(err)
      ? { code: err.code, details: err.details }
      : { code: `not a RunnerError: ${String(err)}`, details: undefined };
  }
}

describe('mount safety: every host path × every hostile target is refused at plan (unsafe_bind)', () => {
  let dirs: Dirs;
  beforeEach(() => {
    dirs = makeHostileDirs();
  });
  afterEach(() => dirs.cleanup());

  const cases = RUNNERS.flatMap(([rname, rc]) =>
    SOURCES.flatMap((source) => TARGETS.map(([tname, target]) => [rname, source, tname, rc, target] as const)),
  );
  it.each(cases)('%s refuses %s naming %s', (_r, source, _t, rc, target) => {
    const written = target(dirs, source === 'agent_binary_path');
    const err = planError(rc, specFor(dirs, rc, source, written), contextFor(dirs));
    expect(err?.code).toBe('unsafe_bind');
  });

  it.each(RUNNERS)('%s names the path as the operator wrote it, never the resolved one', (_r, rc) => {
    const written = path.join(dirs.root, 'link-state');
    const err = planError(rc, specFor(dirs, rc, 'skill', written), contextFor(dirs));
    expect(err).toEqual({ code: 'unsafe_bind', details: { path: written } });
  });

  it.each(RUNNERS)('%s still accepts a safe skill and binds outside every protected path', (_r, rc) => {
    const safe = path.join(dirs.root, 'safe-skill');
    mkdirSync(safe);
    const spec = { ...specFor(dirs, rc, 'skill', safe), config: { extra_ro_binds: [[safe, '/opt/safe']] as [string, string][] } };
    expect(planError(rc, spec, contextFor(dirs))).toBeUndefined();
  });

  it('tmux runner none (host client) refuses the same skills', () => {
    const rc: RunnerCase = { runner: createTmuxRunner(), spec: { backend: 'tmux', client: { command: ['/usr/bin/node', '-e', '1'] } } };
    for (const [, target] of TARGETS)
      expect(planError(rc, specFor(dirs, rc, 'skill', target(dirs, false)), contextFor(dirs))?.code).toBe('unsafe_bind');
  });

  const WORKSPACES: readonly (readonly [string, (d: Dirs) => string])[] = [
    ["another agent's default workspace", (d) => path.join(d.home, 'workspaces', 'swarm1', 'other')],
    ['a symlink into GENSWARMS_HOME', (d) => path.join(d.root, 'link-state')],
    ["another agent's workspace", (d) => d.otherWs],
    ["a directory containing another agent's workspace", (d) => d.root],
    ['a unix socket', (d) => path.join(d.root, 'plain.sock')],
    ['a FIFO', (d) => path.join(d.root, 'fifo')],
    ['/proc', () => '/proc'],
    ['/run', () => '/run'],
    // system directories: never a workspace, whatever GENSWARMS_WORKSPACE_ROOTS says
    ['/etc', () => '/etc'],
    ['/usr/local/bin', () => '/usr/local/bin'],
    ['/boot', () => '/boot'],
    ['/root/.ssh', () => '/root/.ssh'],
    ['/var/spool/cron', () => '/var/spool/cron'],
    ['/var', () => '/var'],
    ['/tmp', () => '/tmp'],
  ];
  const wsCases = RUNNERS.flatMap(([rname, rc]) => WORKSPACES.map(([wname, ws]) => [rname, wname, rc, ws] as const));
  it.each(wsCases)('%s refuses a workspace that is %s (unsafe_workspace)', (_r, _w, rc, ws) => {
    const spec = { ...specFor(dirs, rc, 'skill', ''), skills: [], workspace: ws(dirs) };
    expect(planError(rc, spec, contextFor(dirs))?.code).toBe('unsafe_workspace');
  });

  it.each(RUNNERS)("%s accepts the agent's own default workspace", (_r, rc) => {
    const spec = { ...specFor(dirs, rc, 'skill', ''), skills: [], workspace: path.join(dirs.home, 'workspaces', 'swarm1', 'agent1') };
    expect(planError(rc, spec, contextFor(dirs))).toBeUndefined();
  });
});

/** A DockerPort that fails the test if anything reaches the engine. */
const UNTOUCHABLE_PORT = new Proxy({} as DockerPort, {
  get: () => () => {
    throw new Error('the docker engine was reached');
  },
});

describe('mount safety: a path swapped to a symlink into GENSWARMS_HOME between plan and start is refused at start', () => {
  let dirs: Dirs;
  beforeEach(() => {
    dirs = makeHostileDirs();
  });
  afterEach(() => dirs.cleanup());

  const STARTS: readonly (readonly [string, RunnerCase])[] = [
    RUNNERS[0] as readonly [string, RunnerCase],
    ['docker', { runner: createDockerRunner({ port: UNTOUCHABLE_PORT }), spec: (RUNNERS[1] as readonly [string, RunnerCase])[1].spec }],
    RUNNERS[2] as readonly [string, RunnerCase],
    [
      'tmux+docker',
      {
        runner: createTmuxRunner({ docker: createTmuxDockerRunner({ port: UNTOUCHABLE_PORT }) }),
        spec: (RUNNERS[3] as readonly [string, RunnerCase])[1].spec,
      },
    ],
  ];
  const cases = STARTS.flatMap(([rname, rc]) =>
    (['skill', 'extra_ro_binds', 'extra_rw_binds'] as const).map((source) => [rname, source, rc] as const),
  );
  it.each(cases)('%s: %s', async (_r, source, rc) => {
    const written = path.join(dirs.root, 'swapped');
    mkdirSync(written);
    const ctx = contextFor(dirs);
    const plan: LaunchPlan = rc.runner.plan(specFor(dirs, rc, source, written), ctx);
    renameSync(written, `${written}.orig`);
    symlinkSync(path.join(dirs.home, 'state'), written);
    await expect(rc.runner.start(plan, ctx)).rejects.toMatchObject({ code: 'unsafe_bind', details: { path: written } });
    expect(existsSync(plan.stateDir)).toBe(false); // refused before anything was created
    expect(existsSync(path.join(dirs.home, 'tmux', 'tmux.sock'))).toBe(false);
  });

  it('refuses a path that now resolves to another safe place (the plan bound the old one)', async () => {
    const rc = RUNNERS[0]?.[1] as RunnerCase;
    const written = path.join(dirs.root, 'moved');
    mkdirSync(written);
    mkdirSync(path.join(dirs.root, 'elsewhere'));
    const ctx = contextFor(dirs);
    const plan = rc.runner.plan(specFor(dirs, rc, 'skill', written), ctx);
    renameSync(written, `${written}.orig`);
    symlinkSync(path.join(dirs.root, 'elsewhere'), written);
    await expect(rc.runner.start(plan, ctx)).rejects.toMatchObject({ code: 'unsafe_bind' });
  });
});

describe('mount safety: generated mounts never expose GENSWARMS_HOME', () => {
  let dirs: Dirs;
  beforeEach(() => {
    dirs = makeHostileDirs();
  });
  afterEach(() => dirs.cleanup());

  it.each(RUNNERS.slice(0, 2))('%s refuses a genswarms-agent dist directory inside GENSWARMS_HOME (unsafe_bind)', (_r, rc) => {
    const entry = path.join(dirs.home, 'agent-main.js');
    writeFileSync(entry, '');
    const spec = makeSpec({ workspace: dirs.workspace, ...rc.spec, client: 'genswarms-agent' });
    expect(planError(rc, spec, { ...contextFor(dirs), agentEntry: entry })?.code).toBe('unsafe_bind');
  });
});
