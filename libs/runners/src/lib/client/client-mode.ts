import type { AgentLaunchSpec, ClientSpec } from '../port';
import { RunnerError } from '../errors/runner-error';
import type { CodingClientName } from './coding-clients';

/**
 * How a coding client takes its turns (docs/clients.md "Modes"): `pane` — the TUI in a tmux pane or the local
 * runner's pty, each turn pasted; `headless` — genswarms-agent runs the client once per inbox item
 * (`codex exec`, `claude -p`, `opencode run`) and turns its answer into the receipt.
 */
export type ClientMode = 'pane' | 'headless';

/** `backend.opts.client_mode` of a local agent: `tui` (the default: a pty) or `headless`. */
export const LOCAL_CLIENT_MODES: readonly string[] = ['tui', 'headless'];

/** codex, claude and opencode (the published clients of docs/clients.md). */
export function isCodingClient(client: ClientSpec): client is CodingClientName {
  return client === 'codex' || client === 'claude' || client === 'opencode';
}

/** tmux → pane; local → `backend.opts.client_mode` (default `tui`, a pane in a pty); every other backend → headless. */
export function clientModeOf(spec: AgentLaunchSpec): ClientMode {
  if (spec.backend === 'tmux') return 'pane';
  if (spec.backend !== 'local') return 'headless';
  const raw = Object.prototype.hasOwnProperty.call(spec.backendOpts, 'client_mode') ? spec.backendOpts['client_mode'] : undefined;
  if (raw === undefined || raw === 'tui') return 'pane';
  if (raw === 'headless') return 'headless';
  throw new RunnerError('validation_failed', `backend.opts.client_mode must be one of ${LOCAL_CLIENT_MODES.join(', ')}`, {
    agent: spec.agent,
  });
}

/** True when the process the runner starts is genswarms-agent: the default client, or a headless coding client's driver. */
export function runsGenswarmsAgent(spec: AgentLaunchSpec): boolean {
  if (spec.client === 'genswarms-agent') return spec.config.agent_binary_path === undefined;
  return isCodingClient(spec.client) && clientModeOf(spec) === 'headless';
}
