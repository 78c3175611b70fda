import type { CommandDeps } from '../cli/command-module';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';
import { detailValue } from '../client/respond';
import type { AgentStatusView } from './agent-table';
import { screenTail } from './attention-lines';

/** States in which an agent will not become ready by waiting. */
export const STUCK_STATES: ReadonlySet<string> = new Set(['failed', 'stopped', 'needs_attention']);
/** How many `agent_failed` events one lookup reads (newest first): enough for the agents of one start. */
const FAILURE_EVENTS_LIMIT = 1000;
/** Metadata fields that are not detail lines of a failure (`last_lines`: printed as the client's screen). */
const NOT_DETAILS: ReadonlySet<string> = new Set(['code', 'reason', 'message', 'last_lines']);

interface FailedEvent {
  agent?: unknown;
  message?: unknown;
  metadata?: Readonly<Record<string, unknown>>;
}

/** The newest `agent_failed` event of each agent (the server's code, sentence and detail fields). */
async function newestFailures(deps: CommandDeps, swarm: string): Promise<Map<string, FailedEvent>> {
  const query = { event_type: 'agent_failed', limit: FAILURE_EVENTS_LIMIT };
  const body = await callOp(deps, 'swarmEvents', { params: { s: swarm }, query }, { json: false });
  const out = new Map<string, FailedEvent>();
  for (const e of body.events) if (typeof e.agent === 'string' && !out.has(e.agent)) out.set(e.agent, e);
  return out;
}

function failureLines(name: string, e: FailedEvent | undefined): string[] {
  const meta = e?.metadata ?? {};
  const codeRaw = meta['code'] ?? meta['reason'];
  const code = typeof codeRaw === 'string' ? oneLine(codeRaw, 64) : 'failed';
  const message = typeof e?.message === 'string' ? `: ${oneLine(e.message, 1000)}` : '';
  const details = Object.entries(meta)
    .filter(([k, v]) => !NOT_DETAILS.has(k) && v !== undefined && v !== null)
    .map(([k, v]) => `      ${oneLine(k, 64)}: ${detailValue(v)}`);
  return [`  ${name}: ${code}${message}`, ...details, ...screenTail(meta['last_lines'])];
}

function statusFailureLines(name: string, f: NonNullable<AgentStatusView['failure']>): string[] {
  const details = f.details ?? {};
  const message = typeof f.message === 'string' ? `: ${oneLine(f.message, 1000)}` : '';
  return [
    `  ${name}: ${oneLine(String(f.code), 64)}${message}`,
    ...Object.entries(details)
      .filter(([k, v]) => !NOT_DETAILS.has(k) && v !== undefined && v !== null)
      .map(([k, v]) => `      ${oneLine(k, 64)}: ${detailValue(v)}`),
    ...screenTail(details['last_lines']),
  ];
}

/**
 * One block per stuck agent, as the server reported it: `  a: binary_missing: <the server's sentence>` then its
 * detail fields (failed: the status's `failure`, or the newest `agent_failed` event; needs_attention: its reason). No text is made up.
 */
export async function stuckAgentLines(deps: CommandDeps, swarm: string, agents: readonly AgentStatusView[]): Promise<string[]> {
  const stuck = agents.filter((a) => STUCK_STATES.has(String(a.state)));
  // The status carries `failure` (code, sentence, details); a server without it is asked for the agent_failed events.
  const needEvents = stuck.some((a) => a.state === 'failed' && typeof a.failure?.code !== 'string');
  const failures = needEvents ? await newestFailures(deps, swarm) : new Map<string, FailedEvent>();
  return stuck.flatMap((a) => {
    const name = oneLine(String(a.name), 64);
    if (a.state === 'failed' && typeof a.failure?.code === 'string') return statusFailureLines(name, a.failure);
    if (a.state === 'failed') return failureLines(name, failures.get(String(a.name)));
    const reason = a.needs_attention?.reason;
    const details = a.needs_attention?.details;
    const screen = typeof details === 'object' && details !== null && 'last_lines' in details ? screenTail(details.last_lines) : [];
    return [`  ${name}: ${String(a.state)}${typeof reason === 'string' ? `: ${oneLine(reason, 200)}` : ''}`, ...screen];
  });
}
