import type { z } from 'zod';
import { redactSecrets } from '@genswarms/security';
import { NAME_RE } from '@genswarms/ir-gate';
import {
  EmptyCommandSchema,
  EngineError,
  EventsCommandSchema,
  issuesOf,
  LogsCommandSchema,
  parseEventFilters,
  SocketTaskCommandSchema,
  toLogEntry,
} from '@genswarms/engine';
import type { EventFilterSet, SwarmService } from '@genswarms/engine';
import type { JoinedEvent } from './socket-events';
import type { JoinedEventHandler } from './swarm-namespace';

/** How many recent logs/events a subscribe ack carries (docs/websocket.md). */
export const RECENT_LIMIT = 50;

type AckBody = Record<string, unknown> & { ok: boolean };

/** Most event filter sets, and most single-agent log subscriptions, one socket may hold (flood bound). */
export const MAX_SUBSCRIPTIONS = 100;

/** An EngineError (or refusal) as a failed ack (docs/rest-api.md body + `ok:false`). */
export function failureAck(err: unknown): AckBody {
  if (err instanceof EngineError) return { ok: false, error: err.code, message: err.message, ...err.details };
  throw err;
}

function parse<T>(schema: z.ZodType<T>, payload: unknown, code: 'validation_failed' | 'invalid_query'): T {
  const parsed = schema.safeParse(payload ?? undefined);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  const first = parsed.error.issues[0];
  const unknownKey = first?.code === 'unrecognized_keys' ? first.keys[0] : undefined;
  const param = unknownKey ?? (issues[0]?.path.split('.').pop() || 'filters');
  throw code === 'invalid_query'
    ? new EngineError('invalid_query', `Invalid filter ${param}.`, { param })
    : new EngineError('validation_failed', 'The payload is invalid.', { issues });
}

function sendTask(engine: SwarmService): JoinedEventHandler {
  return async (_socket, swarm, payload) => {
    const { agent, task } = parse(SocketTaskCommandSchema, payload, 'validation_failed');
    if (!NAME_RE.test(agent)) throw new EngineError('agent_not_found', 'No such agent.', { agent: agent.slice(0, 64) });
    const sent = await engine.sendTask(swarm, agent, task);
    return { ok: true, status: 'sent', id: sent.id, queued: sent.queued };
  };
}

function subscribeLogs(engine: SwarmService): JoinedEventHandler {
  return async (socket, swarm, payload) => {
    const agent = parse(LogsCommandSchema, payload, 'validation_failed')?.agent ?? null;
    const logs = socket.data.logs ?? { all: false, agents: [] };
    if (agent === null) logs.all = true;
    else if (!logs.agents.includes(agent)) {
      if (logs.agents.length >= MAX_SUBSCRIPTIONS) throw tooManySubscriptions('agent');
      logs.agents.push(agent);
    }
    socket.data.logs = logs;
    const recent = await engine.recentEvents(swarm, [agent === null ? {} : { agent }], RECENT_LIMIT);
    return { ok: true, subscribed: true, agent, recent_logs: redactSecrets(recent).map(toLogEntry) };
  };
}

function unsubscribeLogs(): JoinedEventHandler {
  return async (socket, _swarm, payload) => {
    const agent = parse(LogsCommandSchema, payload, 'validation_failed')?.agent ?? null;
    const logs = socket.data.logs;
    if (agent === null || logs === undefined) socket.data.logs = undefined;
    else logs.agents = logs.agents.filter((a) => a !== agent);
    return { ok: true, unsubscribed: true, agent };
  };
}

function tooManySubscriptions(param: 'agent' | 'filters'): EngineError {
  return new EngineError('invalid_query', `At most ${MAX_SUBSCRIPTIONS} subscriptions per socket; unsubscribe first.`, {
    param,
    limit: MAX_SUBSCRIPTIONS,
  });
}

const sameFilters = (a: EventFilterSet, b: EventFilterSet): boolean =>
  a.level === b.level && a.category === b.category && a.event_type === b.event_type && a.agent === b.agent;

function subscribeEvents(engine: SwarmService): JoinedEventHandler {
  return async (socket, swarm, payload) => {
    const filters: EventFilterSet = parseEventFilters(parse(EventsCommandSchema, payload, 'invalid_query')?.filters);
    const held = socket.data.eventFilters ?? [];
    // A repeated set changes nothing (an event is pushed once anyway); new sets are bounded.
    if (!held.some((f) => sameFilters(f, filters))) {
      if (held.length >= MAX_SUBSCRIPTIONS) throw tooManySubscriptions('filters');
      socket.data.eventFilters = [...held, filters];
    }
    const recent = await engine.recentEvents(swarm, [filters], RECENT_LIMIT);
    return { ok: true, subscribed: true, filters, recent_events: redactSecrets(recent) };
  };
}

/** The `/swarm` events that need a join (docs/websocket.md); payloads parsed with zod; errors as error-body acks. */
export function createSwarmHandlers(engine: SwarmService): Record<JoinedEvent, JoinedEventHandler> {
  const guarded =
    (h: JoinedEventHandler): JoinedEventHandler =>
    (socket, swarm, payload) =>
      h(socket, swarm, payload).catch(failureAck);
  return {
    send_task: guarded(sendTask(engine)),
    get_status: guarded(async (_socket, swarm, payload) => {
      parse(EmptyCommandSchema, payload, 'validation_failed');
      return { ok: true, status: redactSecrets(await engine.getSwarm(swarm)) };
    }),
    subscribe_logs: guarded(subscribeLogs(engine)),
    unsubscribe_logs: guarded(unsubscribeLogs()),
    subscribe_events: guarded(subscribeEvents(engine)),
    unsubscribe_events: guarded(async (socket, _swarm, payload) => {
      parse(EmptyCommandSchema, payload, 'validation_failed');
      socket.data.eventFilters = undefined;
      return { ok: true, unsubscribed: true };
    }),
  };
}
