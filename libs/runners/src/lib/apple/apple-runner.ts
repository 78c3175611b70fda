import { spawn } from 'node:child_process';
import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerContext, RunnerHandle } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertNetworkSupported } from '../network/network-policy';
import { assertSeccompSupported } from '../seccomp/seccomp-plan';
import { buildClientArgv } from '../client/clients';
import { buildClientEnv } from '../env/client-env';
import { planMounts } from '../sandbox/mounts';
import { recheckMounts } from '../sandbox/mount-safety';
import { ensurePrivateDir, removeFileIfPresent, stateDirFor, writeEnvFile } from '../state/state-dir';
import { ensureWorkspaceDir } from '../state/skills-links';
import { workspaceWalkRoots } from '../workspace/workspace-roots';
import { attachChild, waitSpawned } from '../process/child-handle';
import { STOP_GRACE_MS } from '../process/process-tree';
import { bypassNotices, describePlan, newSessionId } from '../plan/describe';
import { agentIdentityOf, workspaceOwners } from '../identity/agent-identity';
import { findOnPath } from '../context/runner-context';
import { containerNameFor } from '../docker/container-spec';
import { buildAppleRunArgv, DEFAULT_APPLE_IMAGE } from './apple-argv';

export interface AppleContainerRunnerOptions {
  /** Absolute path of Apple's `container` CLI (tests: a stand-in); default: `container` on the PATH, on macOS only. */
  readonly cli?: string;
  /** `process.platform` (injectable): the CLI exists only on macOS. */
  readonly platform?: NodeJS.Platform;
  readonly defaultImage?: string;
}

/**
 * `apple_container` (docs/runners.md): one Linux VM per agent through Apple's `container` CLI, argv arrays only.
 * NOT run on macOS yet: the argv is tested against a stand-in binary; on Linux the plan refuses (`binary_missing`).
 */
export function createAppleContainerRunner(opts: AppleContainerRunnerOptions = {}): Runner {
  const cliFor = (ctx: RunnerContext, agent?: string): string => resolveAppleCli(ctx, opts, agent);
  return {
    kind: 'apple_container',
    plan: (spec, ctx) => {
      const plan = planAppleContainer(spec, ctx);
      cliFor(ctx, spec.agent);
      buildAppleRunArgv(plan, ctx, spec.image ?? opts.defaultImage ?? DEFAULT_APPLE_IMAGE); // every refusal at plan
      return plan;
    },
    start: (plan, ctx) =>
      startAppleContainer(plan, ctx, cliFor(ctx, plan.spec.agent), plan.spec.image ?? opts.defaultImage ?? DEFAULT_APPLE_IMAGE),
  };
}

/** The CLI, or `binary_missing` naming why: not macOS, or not on the PATH. */
export function resolveAppleCli(ctx: RunnerContext, opts: AppleContainerRunnerOptions, agent?: string): string {
  if (opts.cli !== undefined) return opts.cli;
  const platform = opts.platform ?? process.platform;
  const found = platform === 'darwin' && ctx.searchPath !== undefined ? findOnPath('container', ctx.searchPath) : undefined;
  if (found !== undefined) return found;
  const why =
    platform === 'darwin'
      ? "Apple's container CLI is not on the PATH"
      : `Apple's container CLI runs only on macOS (this host: ${platform})`;
  throw new RunnerError('binary_missing', why, { ...(agent === undefined ? {} : { agent }) });
}

function planAppleContainer(spec: AgentLaunchSpec, ctx: RunnerContext): LaunchPlan {
  if (spec.backend !== 'apple_container') throw new RunnerError('validation_failed', 'not an apple_container agent', { agent: spec.agent });
  // isolated fails closed: the CLI offers no egress forwarding equivalent to the pinned host forwarder
  assertNetworkSupported(spec);
  assertSeccompSupported(spec, 'apple_container', false);
  if (spec.config.client_source === 'host_nix') {
    throw new RunnerError('validation_failed', 'host_nix closures are macOS binaries: they cannot run in the Linux VM', {
      agent: spec.agent,
    });
  }
  const stateDir = stateDirFor(ctx.home, spec.swarm, spec.agent);
  const clientArgv = buildClientArgv(spec, ctx, 'sandbox');
  const { env, notices } = buildClientEnv(spec, ctx, { sandbox: true, workspace: '/workspace', home: '/root', tui: false });
  return {
    spec,
    sessionId: newSessionId(),
    stateDir,
    clientArgv,
    env,
    mounts: planMounts(spec, ctx, stateDir, { includeSystem: false }),
    notices: [...notices, ...bypassNotices(clientArgv)],
  };
}

/** One CLI call that must finish (stop, delete): argv only, no shell; resolves with its exit code. */
function runCli(cli: string, args: readonly string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(cli, args, { shell: false, stdio: 'ignore', env: {} });
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
}

async function startAppleContainer(plan: LaunchPlan, ctx: RunnerContext, cli: string, image: string): Promise<RunnerHandle> {
  recheckMounts(plan, ctx); // right before anything exists: a path swapped since plan is refused
  const name = containerNameFor(plan.spec.swarm, plan.spec.agent);
  const owner = agentIdentityOf(ctx);
  await ensurePrivateDir(plan.stateDir, ctx.serverUid, owner);
  await ensureWorkspaceDir(plan.spec.workspace, workspaceOwners(ctx), workspaceWalkRoots(ctx));
  const envFile = await writeEnvFile(plan.stateDir, plan.env, ctx.serverUid, owner);
  const cleanup = async (): Promise<void> => {
    await runCli(cli, ['delete', '--force', name]);
    await removeFileIfPresent(envFile);
  };
  try {
    await runCli(cli, ['delete', '--force', name]); // an old container of that name goes first (absent is fine)
    const child = spawn(cli, buildAppleRunArgv(plan, ctx, image), {
      shell: false,
      detached: true,
      cwd: '/',
      env: {},
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await waitSpawned(child, plan.spec.agent);
    const handle = attachChild(child, { description: describePlan(plan, child.pid === undefined ? {} : { pid: child.pid }), cleanup });
    handle.onExit(() => {
      void cleanup().catch(() => undefined); // best-effort: on a crash; stop() runs it again
    });
    return {
      ...handle,
      // The VM is stopped through the CLI first (its grace, then SIGKILL); then the attached `run` process goes.
      stop: async (stopOpts) => {
        const graceMs = stopOpts?.graceMs ?? STOP_GRACE_MS;
        await runCli(cli, ['stop', '--time', String(Math.max(1, Math.ceil(graceMs / 1000))), name]);
        await handle.stop({ graceMs });
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
