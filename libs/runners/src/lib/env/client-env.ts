import * as path from 'node:path';
import { decideApiKey, effectiveEndpoint } from '@genswarms/security';
import type { EndpointPolicy } from '@genswarms/security';
import { sandboxEndpoint } from '@genswarms/egress';
import type { EgressTarget } from '@genswarms/egress';
import type { AgentLaunchSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { ENV_KEY_RE } from '../state/state-dir';
import { clientPath, isTuiClient } from '../client/clients';
import { networkLabel } from '../network/network-policy';

/** Names a `config.env` entry may not take (docs/runners.md). */
const RESERVED_ENV_NAMES: ReadonlySet<string> = new Set(['HOME', 'PATH']);
const RESERVED_ENV_PREFIXES: readonly string[] = ['GENSWARMS_', 'SWARM_'];

export interface ClientEnvWhere {
  readonly sandbox: boolean;
  /** The workspace as the client sees it (`/workspace` in a sandbox). */
  readonly workspace: string;
  /** HOME as the client sees it (`/root` in a sandbox, else the host state_dir). */
  readonly home: string;
  /** `network: isolated`: the pinned egress target (endpoint = the in-sandbox bridge). */
  readonly egress?: EgressTarget;
  /** Adds TERM/LANG; default: codex/claude/opencode clients or a tmux pane. */
  readonly tui?: boolean;
}

/** The endpoint policy of docs/security.md as carried by the runner context. */
export function endpointPolicyOf(ctx: RunnerContext): EndpointPolicy {
  return {
    ...(ctx.llm.defaultEndpoint === undefined ? {} : { defaultEndpoint: ctx.llm.defaultEndpoint }),
    ...(ctx.llm.serverApiKey === undefined ? {} : { serverApiKey: ctx.llm.serverApiKey }),
    allowedHosts: ctx.llm.allowedHosts,
  };
}

/**
 * The client's environment, built from scratch (docs/runners.md) — never from process.env.
 * Returns notices (`api_key_withheld`) to record as events; values are secrets and never logged.
 */
export function buildClientEnv(
  spec: AgentLaunchSpec,
  ctx: RunnerContext,
  where: ClientEnvWhere,
): { env: Record<string, string>; notices: string[] } {
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  const notices: string[] = [];
  env['GENSWARMS_SWARM'] = spec.swarm;
  env['GENSWARMS_AGENT'] = spec.agent;
  env['GENSWARMS_WORKSPACE'] = where.workspace;
  env['GENSWARMS_TURNS_DIR'] = path.posix.join(where.workspace, '.genswarms', 'turns');
  env['SWARM_TOPOLOGY'] = spec.topologyTargets.join(',');
  addLlmVariables(env, notices, spec, ctx, where);
  if (spec.model !== undefined) env['GENSWARMS_MODEL'] = spec.model;
  if (spec.turnTimeoutMs !== undefined) env['GENSWARMS_TURN_TIMEOUT_MS'] = String(spec.turnTimeoutMs);
  env['GENSWARMS_SKILLS_DIR'] = where.sandbox ? '/skills' : path.join(where.home, 'skills');
  env['HOME'] = where.home;
  env['PATH'] = clientPath(spec);
  if (where.tui ?? (isTuiClient(spec.client) || spec.backend === 'tmux')) {
    env['TERM'] = 'xterm-256color';
    env['LANG'] = 'C.UTF-8';
  }
  addConfigEnv(env, spec);
  return { env, notices };
}

function addLlmVariables(
  env: Record<string, string>,
  notices: string[],
  spec: AgentLaunchSpec,
  ctx: RunnerContext,
  where: ClientEnvWhere,
): void {
  const network = networkLabel(spec.network);
  if (spec.network === 'none') return; // a full cutoff: no endpoint, never any key (docs/security.md)
  const policy = endpointPolicyOf(ctx);
  if (spec.network === 'isolated') {
    if (where.egress === undefined)
      throw new RunnerError('endpoint_not_configured', 'isolated agent without an egress pin', { agent: spec.agent });
    env['GENSWARMS_LLM_ENDPOINT'] = sandboxEndpoint(where.egress);
    env['GENSWARMS_LLM_UPSTREAM_HOST'] = where.egress.upstreamHost;
  } else {
    const endpoint = effectiveEndpoint(policy, spec.endpoint);
    if (endpoint !== undefined) env['GENSWARMS_LLM_ENDPOINT'] = endpoint;
  }
  const decision = decideApiKey(policy, {
    ...(spec.endpoint === undefined ? {} : { endpoint: spec.endpoint }),
    ...(spec.apiKey === undefined ? {} : { apiKey: spec.apiKey }),
    network,
  });
  switch (decision.kind) {
    case 'agent_key':
    case 'server_key':
      env['GENSWARMS_LLM_API_KEY'] = decision.key;
      return;
    case 'withheld':
      notices.push('api_key_withheld');
      return;
    case 'none':
      return;
  }
}

function addConfigEnv(env: Record<string, string>, spec: AgentLaunchSpec): void {
  const extra = spec.config.env;
  if (extra === undefined) return;
  for (const key of Object.keys(extra)) {
    const value = extra[key];
    if (!ENV_KEY_RE.test(key) || RESERVED_ENV_NAMES.has(key) || RESERVED_ENV_PREFIXES.some((p) => key.startsWith(p))) {
      throw new RunnerError('validation_failed', `config.env name ${JSON.stringify(key)} is not allowed`, { agent: spec.agent });
    }
    if (typeof value !== 'string' || value.includes('\0') || value.includes('\n')) {
      throw new RunnerError('validation_failed', `config.env ${key}: value must be a string without NUL or newline`, { agent: spec.agent });
    }
    env[key] = value;
  }
}
