import { randomUUID } from 'node:crypto';
import type { AgentLaunchSpec, LaunchPlan, Runner, RunnerCloseMode, RunnerContext, RunnerHandle, SessionDescription } from '../port';
import { hostToolMissing } from '../errors/binary-missing';
import { RunnerError } from '../errors/runner-error';
import { clientName } from '../client/clients';
import { planClientLaunch } from '../client/client-launch';
import { writeClientHome } from '../state/client-home';
import { buildXargsArgv, computeManifestBudget, manifestDirFor, removeArgvManifest, writeArgvManifest } from '../manifest/argv-manifest';
import { assertNetworkSupported, networkLabel } from '../network/network-policy';
import { planMounts } from '../sandbox/mounts';
import { assertWorkspaceSafe } from '../sandbox/workspace-rules';
import { assertSafeHostPath, recheckMounts } from '../sandbox/mount-safety';
import { ensurePrivateDir, envFilePath, removeFileIfPresent, stateDirFor, writeEnvFile } from '../state/state-dir';
import { paneLaunchFor, xargsArgvToTmuxWords, type PaneLaunch } from './pane-command';
import { agentIdentityOf, workspaceOwners } from '../identity/agent-identity';
import { grantAgentTraversal } from '../identity/agent-traversal';
import { grantClientReach } from '../client/client-install';
import { ensureWorkspaceDir } from '../state/skills-links';
import { workspaceWalkRoots } from '../workspace/workspace-roots';
import { TmuxHandle } from './tmux-handle';
import { RunnerCgroups } from '../cgroup/runner-cgroups';
import { killAgentCgroup } from '../cgroup/cgroup-ops';
import { assertLimitsEnforceable, assertNoLimitsRequested, limitGroupAt, removeLimitGroup } from '../cgroup/agent-limits';
import { assertSeccompSupported } from '../seccomp/seccomp-plan';
import { prepareSandboxExtras } from '../bwrap/sandbox-extras';
import { attachIsolation, isolationCheckFrom, isolationCheckOf } from '../isolation/inspect-isolation';
import { dockerIsolationCheckOf } from '../isolation/docker-isolation';
import type { IsolationReport } from '../isolation/isolation-report';

/** Reads a session's isolation now (RunnerHandle.isolation). */
type IsolationReader = () => Promise<IsolationReport>;
import { TmuxServer } from './tmux-server';
import { defaultScreenRules, type ScreenRulesResolver } from '../client/screens/client-screens';
import type { ClientScreenRules } from '../client/screens/screen-rules';
import { secretValuesOf } from '../screen/screen-lines';
import { TmuxServers, type TmuxPlacement } from './tmux-servers';
import { NAME_RE, tmuxPath, tmuxWindowTarget } from './tmux-words';

export interface TmuxRunnerOptions {
  /** Server 0 to use; default: opened lazily on `$home/tmux/tmux.sock` at the first start. */
  readonly server?: TmuxServer;
  /** Windows per tmux server before the next one is opened (default TMUX_PANES_PER_SERVER; tests use less). */
  readonly panesPerServer?: number;
  /** Runner `docker` (supplied by the docker runner); without it tmux+docker is refused at plan. */
  readonly docker?: TmuxInnerRunner;
  /** Which screen rules a client gets (default: the published clients' table; tests add their own TUI). */
  readonly screens?: ScreenRulesResolver;
}

/** An inner runner plugged into the tmux runner (tmux+docker): plan-time work and the pane's launch. */
export interface TmuxInnerRunner {
  /** Pure: refusals and plan fields (mounts…) on top of the tmux base plan (client argv/env as in a sandbox). */
  plan(spec: AgentLaunchSpec, ctx: RunnerContext, base: LaunchPlan): LaunchPlan;
  /** Optional plan-time checks against the host's engine (the container image is present): Runner.preflight. */
  preflight?(plan: LaunchPlan, ctx: RunnerContext): Promise<void>;
  /** Pure (optional): the pane's entry and words, so the manifest budget and tmux quoting are checked at plan. */
  launch?(plan: LaunchPlan, ctx: RunnerContext): PaneLaunch;
  /**
   * Side effects before the pane starts (the env file is already written): e.g. create the container.
   * The pane replays `entry` + `words` through the NUL manifest; `cleanup` runs at stop (and on a failed start).
   */
  prepare(
    plan: LaunchPlan,
    ctx: RunnerContext,
  ): Promise<{ readonly entry: string; readonly words: readonly string[]; cleanup(): Promise<void>; isolation?: IsolationReader }>;
  /** Optional: after a restart, find the inner resources of a live pane again; null when they are gone. */
  reattach?(description: SessionDescription, ctx: RunnerContext): Promise<{ cleanup(): Promise<void>; isolation?: IsolationReader } | null>;
}

/** docs/runners.md: TUI clients in tmux panes, optionally inside bwrap (runner `bwrap`). */
export function createTmuxRunner(opts: TmuxRunnerOptions = {}): Runner & {
  server(ctx: RunnerContext): Promise<TmuxServer>;
  servers(ctx: RunnerContext): TmuxServers;
  close(mode: RunnerCloseMode): Promise<void>;
} {
  const cgroups = new RunnerCgroups('tmux');
  const screens = opts.screens ?? defaultScreenRules;
  let given = opts.server;
  let pool: TmuxServers | undefined;
  // One pool per runner (ctx carries the same home and tmux on every call); server 0 may be supplied.
  const serversFor = (ctx: RunnerContext): TmuxServers => {
    const tmux = ctx.binaries.tmux;
    if (tmux === undefined) throw hostToolMissing('tmux', 'tmux', undefined, 'tmux agents');
    pool ??= new TmuxServers(
      ctx.home,
      (index) => {
        const supplied = index === 0 ? given : undefined;
        given = index === 0 ? undefined : given;
        return supplied !== undefined && !supplied.control.isClosed
          ? Promise.resolve(supplied)
          : TmuxServer.open({ home: ctx.home, tmux, uid: ctx.serverUid, index });
      },
      opts.panesPerServer,
    );
    return pool;
  };
  return {
    kind: 'tmux',
    plan: (spec, ctx) => planTmux(spec, ctx, opts.docker),
    preflight: async (plan, ctx) => {
      if (plan.spec.runner === 'docker') await opts.docker?.preflight?.(plan, ctx);
    },
    start: async (plan, ctx) => {
      recheckMounts(plan, ctx); // before the tmux server or any file exists
      const servers = serversFor(ctx);
      const { swarm, agent } = plan.spec;
      const placement = await servers.place(swarm, agent);
      try {
        return await startTmux(plan, ctx, placement, servers, opts.docker, cgroups, screens);
      } catch (err) {
        servers.release(swarm, agent);
        throw err;
      }
    },
    reattach: async (description, ctx) => reattachTmux(description, ctx, serversFor(ctx), opts.docker, cgroups, screens),
    server: (ctx) => {
      try {
        return serversFor(ctx).serverAt(0);
      } catch (err) {
        return Promise.reject(err);
      }
    },
    servers: serversFor,
    close: async (mode) => {
      const open = pool;
      pool = undefined;
      if (open === undefined) return;
      const servers = await open.openServers();
      open.clear();
      // Detach keeps the panes for the next start. After a shutdown, or a detach with no agent window left on a
      // server (no swarm running there), nothing would hold that server (`exit-empty off`): it would outlive us
      // as an orphan, so it goes too.
      await Promise.all(
        servers.map(async (server) => {
          const keep = mode === 'detach' && (await server.hasAgentWindows());
          await (keep ? server.close() : server.kill());
        }),
      );
    },
  };
}

/** Pure: every refusal happens here, before anything exists. */
export function planTmux(spec: AgentLaunchSpec, ctx: RunnerContext, docker?: TmuxInnerRunner): LaunchPlan {
  if (spec.backend !== 'tmux') throw new RunnerError('validation_failed', 'not a tmux agent', { agent: spec.agent });
  if (!NAME_RE.test(spec.swarm) || !NAME_RE.test(spec.agent)) throw new RunnerError('validation_failed', 'swarm and agent must be Names');
  if (spec.client === 'genswarms-agent') {
    throw new RunnerError('validation_failed', 'tmux runs TUI clients: codex, claude, opencode or a command', { agent: spec.agent });
  }
  assertNetworkSupported(spec);
  requireBinary(ctx.binaries.tmux, 'tmux', spec.agent);
  const xargs = requireBinary(ctx.binaries.xargs, 'xargs', spec.agent);
  const inner = spec.runner ?? 'none';
  if (inner === 'docker' && docker === undefined) {
    throw new RunnerError('validation_failed', 'tmux runner docker is not available (no docker runner configured)', { agent: spec.agent });
  }
  const sandbox = inner !== 'none';
  if (inner === 'bwrap') assertLimitsEnforceable(spec, ctx); // cgroups hold them, else limits_unsupported
  if (inner === 'none') assertNoLimitsRequested(spec, 'tmux runner none');
  assertSeccompSupported(spec, `tmux runner ${inner}`, inner === 'bwrap');
  const stateDir = stateDirFor(ctx.home, spec.swarm, spec.agent);
  assertWorkspaceSafe(spec, ctx);
  tmuxPath(spec.workspace); // the pane's start directory is quoted for tmux → unsafe_bind if it cannot be
  if (inner === 'none') for (const skill of spec.skills) assertSafeHostPath(skill, 'skill', spec, ctx); // one rule for every runner
  const mounts = inner === 'bwrap' ? planMounts(spec, ctx, stateDir) : [];
  const where = sandbox ? { workspace: '/workspace', home: '/root' } : { workspace: spec.workspace, home: stateDir };
  const client = planClientLaunch(spec, ctx, { sandbox, ...where, tui: true }); // notices: unsafe_bypass_enabled only for a bypass flag
  const base: LaunchPlan = { spec, sessionId: randomUUID(), stateDir, mounts, ...client };
  const plan = inner === 'docker' && docker !== undefined ? docker.plan(spec, ctx, base) : base;
  const launch = inner === 'docker' ? docker?.launch?.(plan, ctx) : paneLaunchFor(plan, ctx);
  if (launch !== undefined) checkPaneLaunch(plan, ctx, xargs, launch);
  return plan;
}

/** Plan-time checks of the pane command: launch_too_large (refuse, never split), unsafe_bind on unquotable paths. */
function checkPaneLaunch(plan: LaunchPlan, ctx: RunnerContext, xargs: string, launch: PaneLaunch): void {
  const manifest = `${manifestDirFor(ctx.home, plan.spec.swarm, plan.spec.agent)}/${plan.sessionId}.argv`;
  computeManifestBudget(launch.entry, launch.words);
  xargsArgvToTmuxWords(buildXargsArgv(xargs, manifest, launch.entry, launch.words));
}

async function startTmux(
  plan: LaunchPlan,
  ctx: RunnerContext,
  placement: TmuxPlacement,
  servers: TmuxServers,
  docker: TmuxInnerRunner | undefined,
  cgroups: RunnerCgroups,
  screens: ScreenRulesResolver,
): Promise<RunnerHandle> {
  const { spec } = plan;
  const { server } = placement;
  const xargs = requireBinary(ctx.binaries.xargs, 'xargs', spec.agent);
  // Every inner runner runs as the agent identity (bwrap is started by it; docker's User is it).
  const owner = agentIdentityOf(ctx);
  await ensurePrivateDir(plan.stateDir, ctx.serverUid, owner);
  if ((spec.runner ?? 'none') !== 'docker') {
    // runner none reaches its directories itself, bwrap binds them as the agent: both walk down from home
    await ensureWorkspaceDir(spec.workspace, workspaceOwners(ctx), workspaceWalkRoots(ctx));
    await grantAgentTraversal(ctx, [plan.stateDir, spec.workspace]);
    await grantClientReach(ctx, plan.clientInstall);
  }
  await writeClientHome(plan, ctx);
  const envFile = await writeEnvFile(plan.stateDir, plan.env, ctx.serverUid, owner);
  let manifest: string | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let innerIsolation: IsolationReader | undefined;
  try {
    let launch = (spec.runner ?? 'none') === 'docker' ? undefined : paneLaunchFor(plan, ctx);
    if (launch === undefined) {
      if (docker === undefined) throw new RunnerError('validation_failed', 'tmux runner docker is not available', { agent: spec.agent });
      const prepared = await docker.prepare(plan, ctx);
      cleanup = () => prepared.cleanup();
      innerIsolation = prepared.isolation;
      launch = prepared;
    }
    if ((spec.runner ?? 'none') === 'none') cleanup = await prepareNoneGroup(server, cgroups, ctx, spec);
    if (spec.runner === 'bwrap') cleanup = (await prepareSandboxExtras(plan, ctx)).cleanup; // limit groups, seccomp filter
    manifest = (await writeArgvManifest(manifestDirFor(ctx.home, spec.swarm, spec.agent), plan.sessionId, launch.words, ctx.serverUid))
      .path;
    const argv = xargsArgvToTmuxWords(buildXargsArgv(xargs, manifest, launch.entry, launch.words));
    const pane = await server.createWindow(spec.swarm, spec.agent, spec.workspace, argv);
    const handle = new TmuxHandle({
      server,
      description: describePlan(plan, pane.panePid, placement.index),
      paneId: pane.paneId,
      panePid: pane.panePid,
      envFile,
      manifest: { file: manifest },
      release: () => servers.release(spec.swarm, spec.agent),
      ...(cleanup === undefined ? {} : { cleanup }),
      ...screenOf(screens, clientName(spec.client)),
      secrets: secretValuesOf(plan.env),
    });
    // runner docker: the container's isolation (its init process and the engine's inspect), not the pane's /proc
    if (innerIsolation !== undefined) return Object.assign(handle, { isolation: innerIsolation });
    return spec.runner === 'docker' ? handle : attachIsolation(handle, handle.describe().isolationCheck, pane.panePid);
  } catch (err) {
    await removeFileIfPresent(envFile);
    if (manifest !== undefined) await removeArgvManifest(manifest);
    if (cleanup !== undefined) await cleanup().catch(() => undefined); // best-effort: the start failed already and that error is the one reported
    throw err;
  }
}

/**
 * runner `none`: the pane's cgroup, emptied of what a dead instance left, and its kill for stop. A live
 * pane on the window is never touched (createWindow refuses to replace it).
 */
async function prepareNoneGroup(
  server: TmuxServer,
  cgroups: RunnerCgroups,
  ctx: RunnerContext,
  spec: AgentLaunchSpec,
): Promise<(() => Promise<void>) | undefined> {
  const group = cgroups.groupFor(ctx, spec.swarm, spec.agent);
  if (group === undefined) return undefined;
  const pane = await server.findPane(spec.swarm, spec.agent);
  if (pane !== undefined && !pane.dead) return undefined;
  await cgroups.prepare(ctx, group);
  return () => killAgentCgroup(group);
}

/** Metadata only: env *names*, never values. */
function describePlan(plan: LaunchPlan, pid: number, tmuxServer: number): SessionDescription {
  const { spec } = plan;
  return {
    sessionId: plan.sessionId,
    backend: 'tmux',
    runner: spec.runner ?? 'none',
    network: networkLabel(spec.network),
    client: clientName(spec.client),
    pid,
    tmuxTarget: tmuxWindowTarget(spec.swarm, spec.agent).text,
    tmuxServer,
    envNames: Object.keys(plan.env).sort(),
    workspace: spec.workspace,
    stateDir: plan.stateDir,
    notices: [...plan.notices],
    isolationCheck: spec.runner === 'docker' ? dockerIsolationCheckOf(plan) : isolationCheckOf(plan),
  };
}

/** Finds `=<swarm>:=<agent>` again after an orchestrator restart; null when it is gone or not ours. */
async function reattachTmux(
  description: SessionDescription,
  ctx: RunnerContext,
  servers: TmuxServers,
  docker: TmuxInnerRunner | undefined,
  cgroups: RunnerCgroups,
  screens: ScreenRulesResolver,
): Promise<RunnerHandle | null> {
  const m = /^=([^:]+):=(.+)$/.exec(description.tmuxTarget ?? '');
  if (description.backend !== 'tmux' || m === null) return null;
  const [swarm, agent] = [m[1] as string, m[2] as string];
  if (!NAME_RE.test(swarm) || !NAME_RE.test(agent)) return null;
  const placement = await servers.locate(swarm, agent, description.tmuxServer);
  try {
    const handle =
      placement === undefined ? null : await reattachOn(description, ctx, placement, servers, docker, cgroups, screens, swarm, agent);
    if (placement === undefined) await forgetGonePane(ctx, cgroups, description, swarm, agent);
    if (handle === null) servers.release(swarm, agent);
    return handle;
  } catch (err) {
    servers.release(swarm, agent);
    throw err;
  }
}

/** The pane is gone: what escaped it is not adopted (runner none's cgroup), bwrap's limit group goes. */
async function forgetGonePane(
  ctx: RunnerContext,
  cgroups: RunnerCgroups,
  description: SessionDescription,
  swarm: string,
  agent: string,
): Promise<void> {
  const group = (description.runner ?? 'none') === 'none' ? cgroups.groupFor(ctx, swarm, agent) : undefined;
  if (group !== undefined) await killAgentCgroup(group);
  const limits = description.runner === 'bwrap' ? limitGroupAt(ctx, swarm, agent) : undefined;
  if (limits !== undefined) await removeLimitGroup(limits);
}

async function reattachOn(
  description: SessionDescription,
  ctx: RunnerContext,
  placement: TmuxPlacement,
  servers: TmuxServers,
  docker: TmuxInnerRunner | undefined,
  cgroups: RunnerCgroups,
  screens: ScreenRulesResolver,
  swarm: string,
  agent: string,
): Promise<RunnerHandle | null> {
  const { server } = placement;
  const pane = await server.findPane(swarm, agent);
  if (pane === undefined) {
    await forgetGonePane(ctx, cgroups, description, swarm, agent);
    return null;
  }
  if (description.pid !== undefined && pane.panePid !== description.pid) return null;
  const group = (description.runner ?? 'none') === 'none' ? cgroups.groupFor(ctx, swarm, agent) : undefined;
  const limits = description.runner === 'bwrap' ? limitGroupAt(ctx, swarm, agent) : undefined;
  let inner: { cleanup(): Promise<void>; isolation?: IsolationReader } | null = null;
  if (description.runner === 'docker') {
    if (docker?.reattach === undefined) return null; // cannot manage its container: not adopted
    inner = await docker.reattach(description, ctx);
    if (inner === null) {
      await server.killWindow(pane.paneId); // its container is gone: the pane is a dead end
      return null;
    }
  }
  await server.ensureLinked(swarm, agent);
  const handle = new TmuxHandle({
    server,
    description: { ...description, pid: pane.panePid, tmuxServer: placement.index },
    paneId: pane.paneId,
    panePid: pane.panePid,
    envFile: envFilePath(stateDirFor(ctx.home, swarm, agent)),
    manifest: { dir: manifestDirFor(ctx.home, swarm, agent) },
    release: () => servers.release(swarm, agent),
    // re-attached: the client's env is gone (the launcher deleted its file); the server's own key is still replaced
    ...screenOf(screens, description.client),
    secrets: secretValuesOf(ctx.llm.serverApiKey === undefined ? {} : { GENSWARMS_LLM_API_KEY: ctx.llm.serverApiKey }),
    ...(inner !== null
      ? { cleanup: () => inner.cleanup() }
      : group !== undefined
        ? { cleanup: () => killAgentCgroup(group) }
        : limits !== undefined
          ? { cleanup: () => removeLimitGroup(limits) }
          : {}),
  });
  // the stored check (never trusted blindly: a malformed one is ignored) makes the re-attached pane checkable again
  if (inner?.isolation !== undefined) return Object.assign(handle, { isolation: inner.isolation });
  return description.runner === 'docker' ? handle : attachIsolation(handle, isolationCheckFrom(description.isolationCheck), pane.panePid);
}

function screenOf(screens: ScreenRulesResolver, client: string): { screen?: ClientScreenRules } {
  const screen = screens(client);
  return screen === undefined ? {} : { screen };
}

/** Debian package of each host tool the tmux runner needs (named in the binary_missing sentence). */
const TMUX_TOOL_PACKAGES: Readonly<Record<string, string>> = { tmux: 'tmux', xargs: 'findutils' };

function requireBinary(bin: string | undefined, name: string, agent: string): string {
  if (bin === undefined) throw hostToolMissing(name, TMUX_TOOL_PACKAGES[name] ?? name, agent, 'tmux agents');
  return bin;
}
