import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { SANDBOX_EGRESS_DIR } from '@genswarms/egress';
import type { AgentLaunchSpec, MountSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { LAUNCHER_PATH, SANDBOX_LAUNCHER_PATH } from '../launcher/launcher';
import { isUnderSystem, SANDBOX_AGENT_DIR, SANDBOX_BIN_DIR } from '../client/clients';
import { runsGenswarmsAgent } from '../client/client-mode';
import { clientInstallMount, installedClientFor } from '../client/client-install';
import { assertSandboxPath } from './path-rules';
import { assertWorkspaceSafe } from './workspace-rules';
import { planNixMounts } from './nix-closure';
import { assertGeneratedSource, assertSafeHostPath } from './mount-safety';

/** Host system paths bound read-only into bwrap when they exist (docs/runners.md, `client_source: runtime`). */
export const DEFAULT_SYSTEM_PATHS: readonly string[] = [
  '/usr',
  '/bin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc/ssl',
  '/etc/resolv.conf',
  '/etc/hosts',
];
/** Name resolution files: only with `network: open`. */
const OPEN_ONLY_PATHS: ReadonlySet<string> = new Set(['/etc/resolv.conf', '/etc/hosts']);

export interface PlanMountsOptions {
  /** bwrap: bind host system paths (and node, if outside them). docker: false (the image provides them). */
  readonly includeSystem?: boolean;
}

/** `<home>/egress/<swarm>/<agent>` — the host side of an isolated agent's forwarder. */
export function egressDirFor(home: string, swarm: string, agent: string): string {
  return path.join(home, 'egress', swarm, agent);
}

/**
 * Every bind of the sandbox, in mount order (docs/runners.md). Every operator-named host path passes the
 * mount-safety rule (`assertSafeHostPath`) and carries its `origin` for the start-time re-check.
 * Refuses at plan time: `unsafe_workspace`, `unsafe_bind`, `validation_failed` (skills, host_nix). Reads only metadata.
 */
export function planMounts(
  spec: AgentLaunchSpec,
  ctx: RunnerContext,
  stateDir: string,
  opts: PlanMountsOptions = {},
): readonly MountSpec[] {
  const includeSystem = opts.includeSystem ?? true;
  const workspace = assertWorkspaceSafe(spec, ctx);
  const mounts: MountSpec[] = [];
  if (includeSystem) mounts.push(...systemMounts(spec, ctx));
  mounts.push({ host: workspace, sandbox: '/workspace', access: 'rw', origin: { written: spec.workspace, kind: 'workspace' } });
  mounts.push({ host: stateDir, sandbox: '/root', access: 'rw' });
  mounts.push(...skillMounts(spec, ctx));
  mounts.push({ host: LAUNCHER_PATH, sandbox: SANDBOX_LAUNCHER_PATH, access: 'ro' });
  mounts.push(...clientMounts(spec, ctx, includeSystem));
  mounts.push(...extraPathMounts(spec, ctx));
  if (spec.config.client_source === 'host_nix') mounts.push(...planNixMounts(spec, ctx, includeSystem));
  if (spec.network === 'isolated') {
    mounts.push({ host: egressDirFor(ctx.home, spec.swarm, spec.agent), sandbox: SANDBOX_EGRESS_DIR, access: 'ro' });
  }
  mounts.push(...extraBinds(spec, ctx, spec.config.extra_ro_binds, 'ro'));
  mounts.push(...extraBinds(spec, ctx, spec.config.extra_rw_binds, 'rw'));
  return mounts;
}

/** host_nix: none of the host's system paths; only the name-resolution files, and only with `network: open`. */
function systemMounts(spec: AgentLaunchSpec, ctx: RunnerContext): MountSpec[] {
  const paths = spec.config.client_source === 'host_nix' ? [...OPEN_ONLY_PATHS] : (ctx.systemPaths ?? DEFAULT_SYSTEM_PATHS);
  return paths
    .filter((p) => spec.network === 'open' || !OPEN_ONLY_PATHS.has(p))
    .map((p) => ({ host: p, sandbox: p, access: 'ro' as const }));
}

function skillMounts(spec: AgentLaunchSpec, ctx: RunnerContext): MountSpec[] {
  const seen = new Set<string>();
  return spec.skills.map((skill) => {
    const real = assertSafeHostPath(skill, 'skill', spec, ctx);
    const name = path.basename(skill);
    if (seen.has(name) || name === '' || name === '..' || name === '.') {
      throw new RunnerError('validation_failed', `skill ${JSON.stringify(name)} must have a unique basename`, { agent: spec.agent });
    }
    seen.add(name);
    return { host: real, sandbox: `/skills/${name}`, access: 'ro' as const, origin: { written: skill, kind: 'skill' as const } };
  });
}

function clientMounts(spec: AgentLaunchSpec, ctx: RunnerContext, includeSystem: boolean): MountSpec[] {
  const mounts: MountSpec[] = [];
  const binary = spec.config.agent_binary_path;
  const installed = installedClientFor(spec, ctx);
  if (installed !== undefined) mounts.push(clientInstallMount(installed));
  if (binary !== undefined) {
    if (!path.isAbsolute(binary)) throw new RunnerError('unsafe_bind', 'agent_binary_path must be absolute', { agent: spec.agent });
    const real = assertSafeHostPath(binary, 'agent_binary_path', spec, ctx);
    if (!statSync(real).isFile()) throw new RunnerError('binary_missing', 'agent_binary_path is not a file', { agent: spec.agent });
    mounts.push({
      host: real,
      sandbox: `${SANDBOX_BIN_DIR}/${path.basename(binary)}`,
      access: 'ro',
      origin: { written: binary, kind: 'agent_binary_path' },
    });
  }
  // genswarms-agent runs: the default client, or the driver of a headless coding client (even with agent_binary_path)
  const agent = runsGenswarmsAgent(spec);
  if (agent) {
    assertGeneratedSource(path.dirname(ctx.agentEntry), ctx, spec.agent);
    mounts.push({ host: path.dirname(ctx.agentEntry), sandbox: SANDBOX_AGENT_DIR, access: 'ro' });
  }
  const needsNode = agent;
  if (includeSystem && needsNode && !isUnderSystem(ctx.binaries.node)) {
    mounts.push({ host: realpathSync(ctx.binaries.node), sandbox: `${SANDBOX_BIN_DIR}/node`, access: 'ro' });
  }
  return mounts;
}

function extraPathMounts(spec: AgentLaunchSpec, ctx: RunnerContext): MountSpec[] {
  return (spec.config.extra_path ?? []).map((dir) => {
    assertSandboxPath(dir, spec.agent);
    const real = assertSafeHostPath(dir, 'extra_path', spec, ctx);
    return { host: real, sandbox: dir, access: 'ro' as const, origin: { written: dir, kind: 'extra_path' as const } };
  });
}

function extraBinds(
  spec: AgentLaunchSpec,
  ctx: RunnerContext,
  binds: AgentLaunchSpec['config']['extra_ro_binds'],
  access: 'ro' | 'rw',
): MountSpec[] {
  return (binds ?? []).map(([host, sandbox]) => {
    assertSandboxPath(sandbox, spec.agent);
    const kind = access === 'ro' ? ('extra_ro_binds' as const) : ('extra_rw_binds' as const);
    const real = assertSafeHostPath(host, kind, spec, ctx);
    return { host: real, sandbox, access, origin: { written: host, kind } };
  });
}
