import { oneLine } from '../cli/format';
import type { AgentStatusView } from './agent-status-view';

/** Screen lines printed per agent (the server sends at most 20). */
const SCREEN_LINES_SHOWN = 20;
/** Characters printed per screen line. */
const SCREEN_LINE_CHARS = 240;

/** `    │ <line>` for each string of `value` (a client screen's last lines, as the server sent them), neutralised. */
export function screenTail(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((l): l is string => typeof l === 'string')
    .slice(-SCREEN_LINES_SHOWN)
    .map((l) => `    │ ${oneLine(l, SCREEN_LINE_CHARS)}`);
}

/** What the operator does about a client_prompt_blocked agent (docs/clients.md "Pane mode"). */
function blockedAdvice(details: Readonly<Record<string, unknown>>): string {
  const dialog = typeof details['dialog'] === 'string' ? `its client shows a dialog (${oneLine(details['dialog'], 64)})` : undefined;
  const stage = typeof details['stage'] === 'string' ? oneLine(details['stage'], 32) : undefined;
  const what =
    dialog ??
    (stage === 'not_ready'
      ? 'its client never showed its ready prompt'
      : `its client did not take the pasted turn (${stage ?? 'unknown'})`);
  return `${what}; answer it in the pane (genswarms attach <swarm> <agent> --write), then genswarms resume, or restart the agent`;
}

/**
 * For each agent held by its client (needs_attention with details) and each failed agent whose failure carries its
 * screen: `<agent>: <reason>: <advice>` and the screen's last lines. Text from the server is neutralised.
 */
export function attentionLines(agents: readonly AgentStatusView[]): string[] {
  return agents.flatMap((a) => {
    const name = typeof a.name === 'string' ? oneLine(a.name, 64) : '-';
    const held = a.needs_attention;
    const details = held?.details;
    if (a.state === 'needs_attention' && typeof held?.reason === 'string' && details !== null && typeof details === 'object') {
      const d = details as Readonly<Record<string, unknown>>;
      const advice = held.reason === 'client_prompt_blocked' ? `: ${blockedAdvice(d)}` : '';
      return [`${name}: ${oneLine(held.reason, 64)}${advice}`, ...screenTail(d['last_lines'])];
    }
    const lines = a.state === 'failed' ? screenTail(a.failure?.details?.['last_lines']) : [];
    return lines.length === 0 ? [] : [`${name}: last screen of its client`, ...lines];
  });
}
