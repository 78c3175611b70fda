import type { AgentConfig } from '@genswarms/ir-gate';
import type { ClientSpec } from '@genswarms/runners';

/**
 * `turn_timeout_ms` of an agent running a published coding client (codex, claude, opencode) that sets none: 30 min.
 * Such a client can lose a turn in ways no receipt reports (a dialog answered by hand and the task dropped, a
 * crashed model call it does not retry), and an agent `busy` for good hides that; a real turn against a remote
 * model seldom takes more than minutes (docs/clients.md "Pane mode").
 */
export const CLIENT_TURN_TIMEOUT_MS = 1_800_000;

/** The agent's own `turn_timeout_ms`, else the coding-client default, else none (genswarms-agent and commands). */
export function turnTimeoutOf(config: AgentConfig | undefined, client: ClientSpec): number | undefined {
  if (config?.turn_timeout_ms !== undefined) return config.turn_timeout_ms;
  return client === 'codex' || client === 'claude' || client === 'opencode' ? CLIENT_TURN_TIMEOUT_MS : undefined;
}
