import * as path from 'node:path';
import type { AgentLaunchSpec, LaunchPlan, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { assertArgv } from '../argv/validate-argv';
import { buildClientEnv, type ClientEnvWhere } from '../env/client-env';
import { bypassNotices } from '../plan/describe';
import { CLIENT_ADAPTERS } from './adapters/adapter-table';
import { CLIENT_KEY_ENV, type ClientAdapterInput } from './adapters/client-adapter';
import { buildClientArgv, hasBypassFlag, SANDBOX_AGENT_DIR, sandboxNodePath } from './clients';
import { clientModeOf, isCodingClient } from './client-mode';
import { installedClientFor } from './client-install';
import { assertClientEndpoint } from './endpoint-compat';

/** The variable that tells genswarms-agent to run a coding client per turn: JSON `{v:1, client, argv}` (docs/agent.md). */
export const CLIENT_EXEC_ENV = 'GENSWARMS_CLIENT_EXEC';

/** What a runner's plan takes from the client: the argv that runs, its env, the start notices, HOME files. */
export type ClientLaunch = Pick<LaunchPlan, 'clientArgv' | 'env' | 'notices' | 'clientHome' | 'clientInstall'>;

/**
 * The client part of every plan (docs/runners.md "Clients", docs/clients.md): the environment from scratch
 * (`buildClientEnv`), then for codex/claude/opencode their adapter — the endpoint as the client sees it
 * checked against what the client speaks (`client_endpoint_incompatible`), HOME files, variables, and the
 * argv of a pane, or (headless) genswarms-agent with the client's per-turn argv in GENSWARMS_CLIENT_EXEC.
 * Pure but for the executable lookup of `buildClientArgv`.
 */
export function planClientLaunch(spec: AgentLaunchSpec, ctx: RunnerContext, where: ClientEnvWhere): ClientLaunch {
  const argvWhere = where.sandbox ? 'sandbox' : 'host';
  const built = buildClientEnv(spec, ctx, where);
  const client = spec.client;
  const executable = buildClientArgv(spec, ctx, argvWhere); // binary_missing, bypass_requires_opt_in, invalid_argv first
  if (!isCodingClient(client)) return { clientArgv: executable, env: built.env, notices: [...built.notices, ...bypassNotices(executable)] };
  const adapter = CLIENT_ADAPTERS[client];
  const input = adapterInputOf(spec, built.env, where);
  assertClientEndpoint(spec, ctx, adapter, input);
  const setup = adapter.setup(input);
  const mode = clientModeOf(spec);
  const words = [executable[0] ?? client, ...(mode === 'pane' ? setup.paneArgs : setup.headlessArgs)];
  assertArgv(words, spec.agent);
  if (hasBypassFlag(words) && !spec.unsafeBypass) {
    throw new RunnerError('bypass_requires_opt_in', 'a bypass flag needs unsafe_bypass: true', { agent: spec.agent });
  }
  // the adapter's variables first: config.env (already in built.env) may override them, never the reverse
  const env: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, setup.env, built.env);
  let clientArgv: readonly string[] = words;
  if (mode === 'headless') {
    env[CLIENT_EXEC_ENV] = JSON.stringify({ v: 1, client, argv: words });
    clientArgv = agentDriverArgv(ctx, argvWhere);
  }
  return {
    clientArgv,
    env,
    notices: [...built.notices, ...bypassNotices(words)],
    clientHome: { files: setup.homeFiles, dirs: setup.homeDirs },
    ...optionalInstall(installedClientFor(spec, ctx)?.prefix),
  };
}

function optionalInstall(prefix: string | undefined): Pick<LaunchPlan, 'clientInstall'> {
  return prefix === undefined ? {} : { clientInstall: prefix };
}

/** The endpoint, key and paths exactly as the client will see them (read back from its built environment). */
function adapterInputOf(spec: AgentLaunchSpec, env: Readonly<Record<string, string>>, where: ClientEnvWhere): ClientAdapterInput {
  const url = env['GENSWARMS_LLM_ENDPOINT'];
  const host = env['GENSWARMS_LLM_UPSTREAM_HOST'];
  return {
    ...(url === undefined
      ? {}
      : { endpoint: { url, hasKey: env[CLIENT_KEY_ENV] !== undefined, ...(host === undefined ? {} : { hostHeader: host }) } }),
    ...(spec.model === undefined ? {} : { model: spec.model }),
    workspace: where.workspace,
    home: where.home,
    unsafeBypass: spec.unsafeBypass,
    sandboxed: where.sandbox,
  };
}

/** genswarms-agent as the runner starts it: node + its entry (in a sandbox: `/run/genswarms/agent/…`). */
function agentDriverArgv(ctx: RunnerContext, where: 'host' | 'sandbox'): readonly string[] {
  if (where === 'host') return [ctx.binaries.node, ctx.agentEntry];
  return [sandboxNodePath(ctx), `${SANDBOX_AGENT_DIR}/${path.basename(ctx.agentEntry)}`];
}
