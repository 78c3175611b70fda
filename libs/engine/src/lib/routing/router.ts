/**
 * docs/messaging.md-14.7: topology-gated delivery of directed sends and broadcasts to agents (inbox)
 * and objects (handler), the message log, `message_routed` / `message_broadcast`, and `awaiting`.
 */
import type { EmitInput } from '../events/event-bus';
import type { ObjectInstance } from '../objects/object-instance';
import type { MessageResult } from '../objects/handler';
import type { EnqueueResult, EventAlong } from '../store/store';
import type { CorePorts } from '../util/core-ports';
import { contentPreview } from '../util/preview';
import { isSystemObject, type NodeKind, type Topology } from './topology';

/** Object → object sends can loop; deeper chains are dropped. */
export const MAX_ROUTE_DEPTH = 16;

export interface RoutingHost extends CorePorts {
  readonly swarm: string;
  readonly topology: Topology;
  kindOf(name: string): NodeKind | undefined;
  /**
   * Queues a message item for an agent and kicks its scheduler; `along` (its `message_delivered`) is written with
   * the item and announced before the kick.
   */
  enqueueMessage(agent: string, from: string, content: string, along?: EventAlong<EnqueueResult>): Promise<EnqueueOutcome>;
  object(name: string): ObjectInstance | undefined;
  markAwaiting(agent: string): void;
}

export type EnqueueOutcome = { readonly kind: 'ok'; readonly itemId: string } | { readonly kind: 'full' };

export interface SendInput {
  readonly from: string;
  readonly to: string;
  readonly content: string;
  readonly turn: string | null;
  readonly depth?: number;
}

export type RouteOutcome = 'routed' | 'denied' | 'target_not_found' | 'dropped';

/** True when `to` has an edge back to `from` and is not a system object (docs/messaging.md). */
function expectsReply(host: RoutingHost, from: string, to: string): boolean {
  return host.topology.hasEdge(to, from) && !isSystemObject(to, (n) => host.kindOf(n));
}

async function denied(host: RoutingHost, from: string, to: string): Promise<'denied'> {
  await host.events.emit({
    type: 'invalid_route',
    swarm: host.swarm,
    agent: from,
    message: `Route ${from} → ${to} is not in the topology; message dropped.`,
    metadata: { from, to, allowed_targets: host.topology.targets(from) },
  });
  return 'denied';
}

/** docs/observability.md `message_delivered`: the message is in the agent's inbox, or the object's handler took it. */
export async function announceDelivered(
  host: RoutingHost,
  input: { from: string; to: string; turn: string | null },
  type: 'direct' | 'ask' | 'broadcast',
  extra: Record<string, unknown> = {},
): Promise<void> {
  await host.events.emit(deliveredEvent(host, input, type, extra));
}

function deliveredEvent(
  host: RoutingHost,
  input: { from: string; to: string; turn: string | null },
  type: 'direct' | 'ask' | 'broadcast',
  extra: Record<string, unknown>,
): EmitInput {
  return {
    type: 'message_delivered',
    swarm: host.swarm,
    agent: input.to,
    message: `Message from ${input.from} delivered to ${input.to}.`,
    metadata: { from: input.from, to: input.to, type, turn: input.turn, ...extra },
  };
}

/** Hands a message to one existing node; objects run their handler, whose sends are routed in turn. */
async function handOver(host: RoutingHost, kind: NodeKind, input: SendInput, type: 'direct' | 'broadcast'): Promise<'ok' | 'full'> {
  if (kind === 'agent') {
    // message_delivered is written with the inbox item (one transaction) and announced before the agent is kicked.
    const delivered = host.events.along((r: EnqueueResult) =>
      r.kind === 'ok' ? deliveredEvent(host, input, type, { item_id: r.item.id }) : null,
    );
    const r = await host.enqueueMessage(input.to, input.from, input.content, delivered);
    if (r.kind === 'ok') return 'ok';
    await host.events.emit({
      type: 'inbox_full',
      swarm: host.swarm,
      agent: input.to,
      message: `Inbox of ${input.to} is full; message from ${input.from} dropped.`,
      metadata: { from: input.from, limit: 1000 },
    });
    return 'full';
  }
  const obj = host.object(input.to);
  if (obj === undefined) return 'ok';
  const out = await obj.deliver({ swarm: host.swarm, object: obj.name, from: input.from, content: input.content, type });
  if (out.kind === 'ok') await announceDelivered(host, input, type);
  if (out.kind === 'failed') {
    await host.events.emit({
      type: 'object_error',
      swarm: host.swarm,
      agent: obj.name,
      message: `Object ${obj.name} failed to handle a message.`,
      metadata: { error: out.error },
    });
  } else if (out.kind === 'ok') {
    await routeObjectResult(host, obj.name, out.result, (input.depth ?? 0) + 1);
  }
  return 'ok';
}

export async function routeObjectResult(host: RoutingHost, object: string, result: MessageResult, depth: number): Promise<void> {
  if (depth > MAX_ROUTE_DEPTH) return;
  const sends =
    result.send === undefined ? [] : Array.isArray(result.send) ? result.send : [result.send as { to: string; content: string }];
  for (const s of sends) {
    if (typeof s?.to === 'string' && typeof s.content === 'string')
      await routeDirect(host, { from: object, to: s.to, content: s.content, turn: null, depth });
  }
  if (typeof result.broadcast === 'string') await routeBroadcast(host, { from: object, content: result.broadcast, turn: null, depth });
}

async function logAndAnnounce(host: RoutingHost, input: SendInput, type: 'direct' | 'ask'): Promise<void> {
  const timestamp = host.clock.now().toISOString();
  const preview = contentPreview(input.content);
  // The log entry and its event in one transaction (one commit per routed message, not two).
  const routed = host.events.along(() => ({
    type: 'message_routed',
    swarm: host.swarm,
    agent: input.from,
    message: `Message routed ${input.from} → ${input.to}.`,
    metadata: { from: input.from, to: input.to, type, content_preview: preview, turn: input.turn },
  }));
  await host.store.appendMessage(
    { timestamp, swarm: host.swarm, from: input.from, to: input.to, type, content_preview: preview, turn: input.turn },
    routed,
  );
  host.events.announce(routed);
  host.pushes.push(host.swarm, {
    type: 'message_routed',
    payload: { timestamp, swarm: host.swarm, from: input.from, to: input.to, type, content_preview: preview },
  });
}

/** Checks topology and existence, then logs; returns the target kind when the send may proceed. */
export async function gateSend(host: RoutingHost, input: SendInput): Promise<NodeKind | RouteOutcome> {
  if (!host.topology.isAllowed(input.from, input.to, (n) => host.kindOf(n))) return denied(host, input.from, input.to);
  const kind = host.kindOf(input.to);
  if (kind === undefined) {
    await host.events.emit({
      type: 'target_not_found',
      swarm: host.swarm,
      agent: input.from,
      message: `Target ${input.to} does not exist; message dropped.`,
      metadata: { from: input.from, to: input.to },
    });
    return 'target_not_found';
  }
  return kind;
}

export async function routeDirect(host: RoutingHost, input: SendInput): Promise<RouteOutcome> {
  const kind = await gateSend(host, input);
  if (kind !== 'agent' && kind !== 'object') return kind;
  if (kind === 'agent' && (await host.store.inboxSize(host.swarm, input.to)) >= 1000) {
    await handOver(host, kind, input, 'direct');
    return 'dropped';
  }
  await logAndAnnounce(host, input, 'direct');
  if (host.kindOf(input.from) === 'agent' && expectsReply(host, input.from, input.to)) host.markAwaiting(input.from);
  const r = await handOver(host, kind, input, 'direct');
  return r === 'full' ? 'dropped' : 'routed';
}

export async function routeBroadcast(host: RoutingHost, input: Omit<SendInput, 'to'>): Promise<readonly string[]> {
  const targets = host.topology.targets(input.from).filter((t) => host.kindOf(t) !== undefined);
  const timestamp = host.clock.now().toISOString();
  const preview = contentPreview(input.content);
  await host.store.appendMessage({
    timestamp,
    swarm: host.swarm,
    from: input.from,
    to: targets,
    type: 'broadcast',
    content_preview: preview,
    turn: input.turn,
  });
  await host.events.emit({
    type: 'message_broadcast',
    swarm: host.swarm,
    agent: input.from,
    message: `Broadcast from ${input.from} to ${targets.length} target(s).`,
    metadata: { from: input.from, to: targets, content_preview: preview, turn: input.turn },
  });
  host.pushes.push(host.swarm, {
    type: 'message_broadcast',
    payload: { timestamp, swarm: host.swarm, from: input.from, to: targets, type: 'broadcast', content_preview: preview },
  });
  if (host.kindOf(input.from) === 'agent' && targets.some((t) => expectsReply(host, input.from, t))) host.markAwaiting(input.from);
  for (const to of targets) {
    const kind = host.kindOf(to);
    if (kind !== undefined) await handOver(host, kind, { ...input, to }, 'broadcast');
  }
  return targets;
}

export { logAndAnnounce };
