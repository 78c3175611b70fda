import { oneLine } from '../cli/format';
import { formatAge } from './age';
import { attentionLines } from './attention-lines';
import type { Cell, Column } from './table';
import { renderTable } from './table';
import type { Colour, Terminal } from './terminal';
import { paint } from './terminal';
import type { AgentStatusView } from './agent-status-view';

export type { AgentStatusView } from './agent-status-view';

/** A swarm as `GET /api/swarms` lists it. */
export interface SwarmSummaryView {
  name?: unknown;
  status?: unknown;
  agent_count?: unknown;
  object_count?: unknown;
  agents_by_state?: unknown;
}

/** Characters of a turn id shown (ids are 26-character tokens; the prefix is enough to tell turns apart). */
const TURN_ID_SHOWN_CHARS = 8;

const STATE_COLOURS: Readonly<Record<string, Colour>> = {
  idle: 'green',
  busy: 'cyan',
  starting: 'yellow',
  needs_attention: 'magenta',
  failed: 'red',
  stopped: 'dim',
  running: 'green',
  error: 'red',
  stopping: 'yellow',
};

const text = (v: unknown, max = 64): string => (typeof v === 'string' && v !== '' ? oneLine(v, max) : '-');
const stateCell = (v: unknown): Cell => ({ text: text(v), colour: typeof v === 'string' ? STATE_COLOURS[v] : undefined });

function turnText(a: AgentStatusView, nowMs: number): string {
  if (typeof a.turn !== 'string') return '-';
  const age = formatAge(a.turn_started_at, nowMs);
  return `${oneLine(a.turn, TURN_ID_SHOWN_CHARS)} ${age}`;
}

function attentionText(a: AgentStatusView): string {
  const reason = a.needs_attention?.reason;
  if (typeof reason === 'string') return oneLine(reason, 120);
  if (typeof a.failure?.code === 'string') return oneLine(a.failure.code, 64);
  if (a.host_key_verified === false) return 'host key not verified';
  return a.awaiting === true ? 'awaiting reply' : '-';
}

function attentionColour(a: AgentStatusView): Colour | undefined {
  if (typeof a.needs_attention?.reason === 'string') return 'magenta';
  if (typeof a.failure?.code === 'string') return 'red';
  return a.host_key_verified === false ? 'yellow' : undefined;
}

/** `<agent>: <code>: <sentence>` for every agent whose status carries a failure (the table has room for the code only). */
export function failureLines(agents: readonly AgentStatusView[]): string[] {
  return agents
    .filter((a) => typeof a.failure?.code === 'string')
    .map((a) => {
      const message = typeof a.failure?.message === 'string' ? `: ${oneLine(a.failure.message, 1000)}` : '';
      return `${text(a.name)}: ${oneLine(String(a.failure?.code), 64)}${message}`;
    });
}

const AGENT_COLUMNS: readonly Column[] = [
  { header: 'AGENT', shrink: { min: 8 } },
  { header: 'STATE' },
  { header: 'BACKEND', shrink: { min: 5 } },
  { header: 'NETWORK', shrink: { min: 4 } },
  { header: 'TURN', shrink: { min: 6 } },
  { header: 'INBOX', align: 'right' },
  { header: 'ATTENTION', shrink: { min: 9 } },
  { header: 'ACTIVE' },
];

/** The per-agent table: name, state, backend/client, network, current turn and its age, inbox, needs-attention reason, last activity. */
export function agentTable(term: Terminal, agents: readonly AgentStatusView[], nowMs: number): string[] {
  const rows = agents.map((a): Cell[] => [
    { text: text(a.name) },
    stateCell(a.state),
    { text: `${text(a.backend, 32)}/${text(a.client, 32)}` },
    { text: text(a.network, 32) },
    { text: turnText(a, nowMs) },
    { text: typeof a.inbox_size === 'number' ? String(a.inbox_size) : '-' },
    { text: attentionText(a), colour: attentionColour(a) },
    { text: typeof a.last_activity === 'string' ? `${formatAge(a.last_activity, nowMs)} ago` : '-' },
  ]);
  return renderTable(term, AGENT_COLUMNS, rows);
}

/** `idle 3, busy 1, failed 1` from `{idle:3, busy:1, failed:1}`, in a fixed order. */
export function statesText(byState: unknown): string {
  if (typeof byState !== 'object' || byState === null) return '-';
  const entries = Object.entries(byState as Record<string, unknown>).filter(
    (e): e is [string, number] => typeof e[1] === 'number' && e[1] > 0,
  );
  const order = Object.keys(STATE_COLOURS);
  entries.sort((x, y) => order.indexOf(x[0]) - order.indexOf(y[0]));
  return entries.length === 0 ? '-' : entries.map(([k, n]) => `${oneLine(k, 32)} ${n}`).join(', ');
}

const SWARM_COLUMNS: readonly Column[] = [
  { header: 'SWARM', shrink: { min: 8 } },
  { header: 'STATUS' },
  { header: 'AGENTS', align: 'right' },
  { header: 'OBJECTS', align: 'right' },
  { header: 'AGENT STATES', shrink: { min: 12 } },
];

/** The swarm list: name, status, agent and object counts, agents by state. */
export function swarmTable(term: Terminal, swarms: readonly SwarmSummaryView[]): string[] {
  const rows = swarms.map((s): Cell[] => [
    { text: text(s.name) },
    stateCell(s.status),
    { text: String(typeof s.agent_count === 'number' ? s.agent_count : 0) },
    { text: String(typeof s.object_count === 'number' ? s.object_count : 0) },
    { text: statesText(s.agents_by_state) },
  ]);
  return renderTable(term, SWARM_COLUMNS, rows);
}

/** A swarm's detail as `GET /api/swarms/:s` answers it. */
export interface SwarmDetailView extends SwarmSummaryView {
  agents?: readonly AgentStatusView[];
}

/** `status <swarm>` and `watch`: one summary line, then the agent table. */
export function swarmDetailLines(term: Terminal, detail: SwarmDetailView, nowMs: number): string[] {
  const agents = detail.agents ?? [];
  const byState = Object.create(null) as Record<string, number>;
  for (const a of agents) if (typeof a.state === 'string') byState[a.state] = (byState[a.state] ?? 0) + 1;
  const objects = typeof detail.object_count === 'number' ? detail.object_count : 0;
  const status = stateCell(detail.status);
  const summary = `${text(detail.name)}: ${paint(term, status.colour, status.text)}, ${agents.length} agents (${statesText(byState)}), ${objects} objects`;
  const failures = [...failureLines(agents), ...attentionLines(agents)];
  return [summary, ...(agents.length === 0 ? [] : agentTable(term, agents, nowMs)), ...(failures.length === 0 ? [] : ['', ...failures])];
}
