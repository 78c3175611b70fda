import type { AgentStatus, Edge, EventRow, SwarmDetail } from './types';

/** Events kept for the stream (oldest dropped first). */
export const EVENTS_KEEP = 1000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The swarm page's state, fed by one REST load and then by pushes only (no polling). Pure: the page
 * schedules one render per animation frame whatever the push rate (`version` changes on every update).
 */
export class SwarmModel {
  readonly agents = new Map<string, Mutable<AgentStatus>>();
  topology: readonly Edge[] = [];
  status = 'unknown';
  events: EventRow[] = [];
  version = 0;
  /** Changes only when agents join or leave (the page memoises name lists and the graph on it). */
  membership = 0;
  /** Changes only when the event list changes. */
  eventsVersion = 0;
  /** Counts pushes that carry no full row (added agents, inbox sizes): the page re-reads the agent list. */
  staleMarks = 0;
  private readMarks = 0;
  private lastEventId = -1;

  load(detail: SwarmDetail): void {
    this.status = detail.status;
    this.topology = detail.topology;
    this.agents.clear();
    for (const a of detail.agents) this.agents.set(a.name, { ...a });
    this.membership++;
    this.version++;
  }

  /** True while a push asked for a re-read that no finished read has covered yet. */
  get stale(): boolean {
    return this.staleMarks !== this.readMarks;
  }

  private markStale(): void {
    this.staleMarks++;
  }

  /** `marksAtStart` = `staleMarks` when the read was sent: pushes after it still count as stale. */
  loadAgents(agents: readonly AgentStatus[], marksAtStart = this.staleMarks): void {
    const seen = new Set<string>();
    for (const a of agents) {
      seen.add(a.name);
      this.agents.set(a.name, { ...a });
    }
    for (const name of [...this.agents.keys()]) if (!seen.has(name)) this.agents.delete(name);
    this.membership++;
    this.readMarks = marksAtStart;
    this.version++;
  }

  addEvents(rows: readonly unknown[]): void {
    for (const r of rows) {
      const e = r as EventRow;
      if (typeof e.id !== 'number' || e.id <= this.lastEventId) continue;
      this.lastEventId = e.id;
      this.events.push(e);
    }
    if (this.events.length > EVENTS_KEEP) this.events.splice(0, this.events.length - EVENTS_KEEP);
    this.eventsVersion++;
    this.version++;
  }

  /** Applies one push of docs/websocket.md; `nowIso` stamps last activity. */
  apply(name: string, p: Record<string, unknown>, nowIso: string): void {
    const agent = typeof p['agent'] === 'string' ? this.agents.get(p['agent']) : undefined;
    if (agent === undefined && typeof p['agent'] === 'string' && name !== 'agent_output' && name !== 'event') this.markStale(); // an agent the page has not read yet
    switch (name) {
      case 'agent_status':
        if (agent !== undefined && typeof p['state'] === 'string') {
          agent.state = p['state'];
          agent.last_activity = nowIso;
          if (p['state'] !== 'needs_attention') agent.needs_attention = null;
          if (p['state'] === 'busy') this.markStale(); // the new turn id and the inbox size
        }
        break;
      case 'turn_completed':
        if (agent !== undefined) {
          agent.turn = null;
          agent.turn_started_at = null;
          agent.last_activity = nowIso;
        }
        break;
      case 'needs_attention':
        if (agent !== undefined) {
          agent.state = 'needs_attention';
          agent.needs_attention = { reason: String(p['reason'] ?? ''), turn: typeof p['turn'] === 'string' ? p['turn'] : null };
        }
        break;
      case 'topology_changed':
        if (Array.isArray(p['topology'])) this.topology = p['topology'] as Edge[];
        break;
      case 'agent_added':
        this.markStale();
        break;
      case 'agent_removed':
        if (typeof p['name'] === 'string' && this.agents.delete(p['name'])) this.membership++;
        break;
      case 'swarm_started':
        this.status = String(p['status'] ?? 'running');
        break;
      case 'swarm_stopped':
        this.status = 'stopped';
        break;
      case 'event':
        this.addEvents([p]);
        return;
      default:
        return;
    }
    this.version++;
  }

  /** Agents sorted by name (the table's order). */
  sortedAgents(): AgentStatus[] {
    return [...this.agents.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

export interface EventFilter {
  readonly level: string;
  readonly category: string;
  readonly agent: string;
}

/** Newest first, at most `limit`, matching every non-empty filter field. */
export function filterEvents(events: readonly EventRow[], f: EventFilter, limit: number): EventRow[] {
  const out: EventRow[] = [];
  for (let i = events.length - 1; i >= 0 && out.length < limit; i--) {
    const e = events[i];
    if (e === undefined) continue;
    if (f.level !== '' && e.level !== f.level) continue;
    if (f.category !== '' && e.category !== f.category) continue;
    if (f.agent !== '' && e.agent !== f.agent) continue;
    out.push(e);
  }
  return out;
}
