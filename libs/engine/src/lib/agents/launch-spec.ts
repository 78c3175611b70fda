/** Builds the runner's AgentLaunchSpec from one agent of the effective config. */
import { viewBackend, type AgentConfig } from '@genswarms/ir-gate';
import {
  createWorkspaceDir,
  isRunnerError,
  parseNetworkMode,
  planNamedWorkspace,
  type AgentLaunchSpec,
  type BackendConfig,
  type BackendKind,
  type InnerRunner,
  type RunnerContext,
} from '@genswarms/runners';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { EngineError, PLAN_ERROR_CODES, isEngineErrorCode } from '../errors/engine-error';
import { turnTimeoutOf } from './turn-timeout';

const RUNNER_BACKENDS: readonly BackendKind[] = ['local', 'bwrap', 'docker', 'tmux', 'mock', 'ssh', 'apple_container', 'swarm'];
const BACKEND_KEYS = [
  'env',
  'client_source',
  'nix_package',
  'memory_limit',
  'cpu_limit',
  'pids_limit',
  'seccomp',
  'extra_ro_binds',
  'extra_rw_binds',
  'extra_path',
  'agent_binary_path',
] as const;

/** The default workspace of an agent: `<home>/workspaces/<swarm>/<agent>`. */
export function defaultWorkspace(home: string, swarm: string, agent: string): string {
  return path.join(home, 'workspaces', swarm, agent);
}

/**
 * The real path the workspace has, or will have once created, fixed for the session: the deepest
 * existing ancestor resolved, the missing rest appended. Creates nothing, so a refused plan leaves no
 * directory behind (`createWorkspace` runs only after every agent of the start or mutation planned).
 * A workspace the operator named must lie below the workspace roots (`planNamedWorkspace`, docs/security.md
 * "Workspace roots"): `workspace_outside_roots` or `unsafe_workspace` otherwise.
 */
export async function planWorkspace(home: string, swarm: string, agent: AgentConfig, ctx: RunnerContext): Promise<string> {
  if (typeof agent.workspace === 'string') {
    try {
      return planNamedWorkspace(agent.workspace, { swarm, agent: agent.name }, ctx);
    } catch (e) {
      throw toEngineError(e, agent.name);
    }
  }
  // a git workspace's clone is the agent's default workspace (planGitWorkspace checks its source)
  const dir = path.resolve(defaultWorkspace(home, swarm, agent.name));
  const missing: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      return path.join(await fsp.realpath(at), ...missing.reverse());
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || path.dirname(at) === at) throw e;
      missing.push(path.basename(at));
    }
  }
}

/**
 * Creates a planned workspace (0700) when missing, by the runners' no-follow walk from the workspace roots
 * (or GENSWARMS_HOME for a default one); an existing one must still pass the ownership rule. Hands nothing
 * to the agent (the runner's start does).
 */
export function createWorkspace(ctx: RunnerContext, planned: string, agent: string): void {
  try {
    createWorkspaceDir(ctx, planned);
  } catch (e) {
    throw toEngineError(e, agent);
  }
}

export function backendConfigOf(config: Readonly<Record<string, unknown>> | undefined): BackendConfig {
  const out: Record<string, unknown> = {};
  for (const key of BACKEND_KEYS) {
    if (config !== undefined && Object.prototype.hasOwnProperty.call(config, key)) out[key] = config[key];
  }
  return out as BackendConfig;
}

/** Maps a RunnerError (or any failure) onto an EngineError; plan codes carry `agent`. */
export function toEngineError(error: unknown, agent: string): EngineError {
  if (error instanceof EngineError) return error;
  if (isRunnerError(error)) {
    const code = error.code;
    if (isEngineErrorCode(code) && (PLAN_ERROR_CODES.includes(code) || code === 'validation_failed')) {
      return new EngineError(code, error.message, { agent, ...(error.details ?? {}) }, { cause: error });
    }
    return new EngineError('runner_error', 'The runner failed for this agent.', { agent, reason: code }, { cause: error });
  }
  return new EngineError('runner_error', 'The runner failed for this agent.', { agent }, { cause: error });
}

export function backendKindOf(agent: AgentConfig): BackendKind {
  const type = viewBackend(agent.backend).type;
  const kind = RUNNER_BACKENDS.find((k) => k === type);
  if (kind === undefined)
    throw new EngineError('remote_engine_unsupported', `Backend ${type} is not available in this build.`, { agent: agent.name });
  return kind;
}

export function isTuiBackend(kind: BackendKind): boolean {
  return kind === 'tmux';
}

export function buildLaunchSpec(swarm: string, agent: AgentConfig, workspaceReal: string, targets: readonly string[]): AgentLaunchSpec {
  const b = viewBackend(agent.backend);
  const backend = backendKindOf(agent);
  let network;
  try {
    network = parseNetworkMode(agent.network);
  } catch (e) {
    throw toEngineError(e, agent.name);
  }
  return {
    swarm,
    agent: agent.name,
    backend,
    ...(b.runner === undefined ? {} : { runner: b.runner as InnerRunner }),
    ...(b.image === undefined ? {} : { image: b.image }),
    ...(b.host === undefined ? {} : { host: b.host }),
    client: agent.client ?? 'genswarms-agent',
    ...(agent.model === undefined ? {} : { model: agent.model }),
    ...(agent.endpoint === undefined ? {} : { endpoint: agent.endpoint }),
    ...(agent.endpoint_api === undefined
      ? {}
      : { endpointApis: typeof agent.endpoint_api === 'string' ? [agent.endpoint_api] : [...agent.endpoint_api] }),
    ...(agent.api_key === undefined ? {} : { apiKey: agent.api_key }),
    network,
    workspace: workspaceReal,
    skills: agent.skills ?? [],
    unsafeBypass: agent.unsafe_bypass === true,
    topologyTargets: targets,
    ...optTurnTimeout(turnTimeoutOf(agent, agent.client ?? 'genswarms-agent')),
    config: backendConfigOf(agent.config as Record<string, unknown> | undefined),
    backendOpts: b.opts ?? {},
  };
}

function optTurnTimeout(ms: number | undefined): { turnTimeoutMs?: number } {
  return ms === undefined ? {} : { turnTimeoutMs: ms };
}

/** Where the client sees the turns directory. */
export function clientTurnsDir(spec: AgentLaunchSpec): string {
  const sandboxed =
    spec.backend === 'bwrap' ||
    spec.backend === 'docker' ||
    spec.backend === 'apple_container' ||
    spec.backend === 'swarm' ||
    (spec.backend === 'tmux' && spec.runner !== undefined && spec.runner !== 'none');
  return sandboxed ? '/workspace/.genswarms/turns' : path.join(spec.workspace, '.genswarms', 'turns');
}
