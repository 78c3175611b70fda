/**
 * apple_container: the `container run` argv is asserted whole, every refusal happens at plan, and start/stop drive
 * an echo-argv stand-in for Apple's CLI (it cannot run on Linux: without a stand-in the plan is binary_missing).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentLaunchSpec, RunnerHandle } from '../../src/index';
import { RunnerError } from '../../src/index';
import { buildAppleRunArgv } from '../../src/lib/apple/apple-argv';
import { createAppleContainerRunner } from '../../src/lib/apple/apple-runner';
import { SANDBOX_ENV_FILE, SANDBOX_LAUNCHER_PATH, LAUNCHER_PATH } from '../../src/lib/launcher/launcher';
import { ECHO_ARGV, makeContext, makeSandboxDirs, makeSpec, readJsonIfWritten } from '../support';
import { codeOf, waitFor } from '@genswarms/test-kit';

const SECRET = `sk-apple-${process.pid}`;

let dirs: ReturnType<typeof makeSandboxDirs>;
let recordDir: string;
let cli: string;
beforeEach(() => {
  dirs = makeSandboxDirs();
  recordDir = mkdtempSync(path.join(os.tmpdir(), 'gs-apple-cli-'));
  // The stand-in: records every call's argv and env; `run` stays alive like an attached container.
  cli = path.join(recordDir, 'container');
  const script = [
    '#!/bin/sh',
    `ECHO_ARGV_DIR='${recordDir}/calls'`,
    'export ECHO_ARGV_DIR',
    'case "$1" in run) ECHO_ARGV_HOLD=1; export ECHO_ARGV_HOLD ;; esac',
    `exec '${process.execPath}' '${ECHO_ARGV}' "$@"`,
    '',
  ].join('\n');
  mkdirSync(path.join(recordDir, 'calls'));
  writeFileSync(cli, script, { mode: 0o755 });
});
afterEach(() => {
  dirs.cleanup();
  rmSync(recordDir, { recursive: true, force: true });
});

const spec = (over: Partial<AgentLaunchSpec> = {}): AgentLaunchSpec =>
  makeSpec({ backend: 'apple_container', workspace: dirs.workspace, apiKey: SECRET, ...over });

describe('apple_container plan', () => {
  it('builds the whole container run argv: identity, caps, limits, named network, mounts, launcher entrypoint', () => {
    const ctx = makeContext(dirs.home);
    const runner = createAppleContainerRunner({ cli });
    const plan = runner.plan(spec({ network: { named: 'agents' }, config: { memory_limit: '512m', cpu_limit: 2 } }), ctx);
    const stateDir = path.join(dirs.home, 'state', 'swarm1', 'agent1');
    const agent = ctx.agent ?? { uid: 0, gid: 0 };
    expect(buildAppleRunArgv(plan, ctx, 'genswarms/agent:latest')).toEqual([
      'run',
      '--rm',
      '--name',
      'gs-swarm1-agent1',
      '--label',
      'genswarms.swarm=swarm1',
      '--label',
      'genswarms.agent=agent1',
      '--label',
      `genswarms.session=${plan.sessionId}`,
      '--uid',
      String(agent.uid),
      '--gid',
      String(agent.gid),
      '--workdir',
      '/workspace',
      '--cap-drop',
      'ALL',
      '--tmpfs',
      '/tmp',
      '--memory',
      '512M',
      '--cpus',
      '2',
      '--network',
      'agents',
      '--mount',
      `type=bind,source=${dirs.workspace},target=/workspace`,
      '--mount',
      `type=bind,source=${stateDir},target=/root`,
      '--mount',
      `type=bind,source=${LAUNCHER_PATH},target=${SANDBOX_LAUNCHER_PATH},readonly`,
      ...plan.mounts.slice(3).flatMap((m) => ['--mount', `type=bind,source=${m.host},target=${m.sandbox},readonly`]),
      '--entrypoint',
      SANDBOX_LAUNCHER_PATH,
      'genswarms/agent:latest',
      SANDBOX_ENV_FILE,
      ...plan.clientArgv,
    ]);
    expect(plan.mounts.slice(3).map((m) => m.sandbox)).toEqual(['/run/genswarms/agent']);
    expect(JSON.stringify(buildAppleRunArgv(plan, ctx, 'x'))).not.toContain(SECRET);
  });

  test.each([
    ['network none (no CLI equivalent)', { network: 'none' as const }, 'unsupported_network'],
    ['network isolated (fails closed: no egress forwarding)', { network: 'isolated' as const }, 'unsupported_network'],
    ['pids_limit (no process-count limit in the CLI)', { config: { pids_limit: 64 } }, 'limits_unsupported'],
    ['a fractional cpu_limit (whole vCPUs only)', { config: { cpu_limit: 0.5 } }, 'limits_unsupported'],
    ['config.seccomp', { config: { seccomp: 'default' as const } }, 'seccomp_unsupported'],
    [
      'a host_nix client (macOS binaries)',
      { config: { client_source: 'host_nix' as const, nix_package: '/nix/store/x-y' } },
      'validation_failed',
    ],
  ])('refuses %s', (_name, over, code) => {
    expect(codeOf(RunnerError, () => createAppleContainerRunner({ cli }).plan(spec(over), makeContext(dirs.home)))).toBe(code);
  });

  it('refuses a bind path holding a comma (it would split the --mount value)', () => {
    const ws = path.join(dirs.root, 'a,b');
    mkdirSync(ws, { mode: 0o700 });
    expect(codeOf(RunnerError, () => createAppleContainerRunner({ cli }).plan(spec({ workspace: ws }), makeContext(dirs.home)))).toBe(
      'unsafe_bind',
    );
  });

  it.each(['linux', 'darwin'] as const)('without the CLI (%s) the plan is binary_missing, never a start', (platform) => {
    const ctx = makeContext(dirs.home, { path: '/nonexistent-gs' });
    expect(codeOf(RunnerError, () => createAppleContainerRunner({ platform }).plan(spec(), ctx))).toBe('binary_missing');
  });
});

describe('apple_container start and stop (echo-argv stand-in for the CLI)', () => {
  let handle: RunnerHandle | undefined;
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    handle = undefined;
  });

  const calls = (): { argv: string[]; env: Record<string, string> }[] =>
    readdirSync(path.join(recordDir, 'calls'))
      .map((f) => readJsonIfWritten<{ argv: string[]; env: Record<string, string> }>(path.join(recordDir, 'calls', f)))
      .filter((c): c is { argv: string[]; env: Record<string, string> } => c !== undefined);

  it('deletes a stale container, runs with the planned argv and an env the CLI never sees, then stop + delete', async () => {
    const ctx = makeContext(dirs.home);
    const runner = createAppleContainerRunner({ cli });
    const plan = runner.plan(spec(), ctx);
    handle = await runner.start(plan, ctx);
    const envFile = path.join(plan.stateDir, '.genswarms', 'env');
    await waitFor(() => calls().some((c) => c.argv[0] === 'run'), 'the container run call', { timeoutMs: 10_000, intervalMs: 20 });
    const run = calls().find((c) => c.argv[0] === 'run');
    expect(run?.argv).toEqual(buildAppleRunArgv(plan, ctx, 'genswarms/agent:latest'));
    expect(
      calls()
        .filter((c) => c.argv[0] === 'delete')
        .map((c) => c.argv),
    ).toEqual([['delete', '--force', 'gs-swarm1-agent1']]);
    expect(JSON.stringify(calls())).not.toContain(SECRET);
    expect(Object.keys(run?.env ?? {}).filter((k) => !k.startsWith('ECHO_ARGV') && k !== 'PWD')).toEqual([]);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(envFile, 'utf8')).toContain(SECRET);

    await handle.stop({ graceMs: 200 });
    handle = undefined;
    const stopAndDelete = calls()
      .map((c) => c.argv)
      .filter((a) => a[0] !== 'run');
    expect(stopAndDelete).toEqual(
      expect.arrayContaining([
        ['stop', '--time', '1', 'gs-swarm1-agent1'],
        ['delete', '--force', 'gs-swarm1-agent1'],
      ]),
    );
    expect(existsSync(envFile)).toBe(false);
  });
});
