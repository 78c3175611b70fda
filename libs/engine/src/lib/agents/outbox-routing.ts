/** Routing of what an agent produced: outbox files, markers and `reply_to` (docs/agent.md §4). */
import { routeAsk } from '../routing/asks';
import { extractMarkers } from '../routing/markers';
import { drainOutbox, type OutboxEntry, type OutboxMessage } from '../routing/outbox';
import { logAndAnnounce, routeBroadcast, routeDirect, routeObjectResult } from '../routing/router';
import type { OutboxOwner, TurnSends } from './session-ports';

function tracker(s: OutboxOwner, explicit: TurnSends | undefined): { send(to: string): void; broadcast(): void } {
  if (explicit !== undefined) {
    return {
      send: (to) => explicit.sentTo.add(to),
      broadcast: () => {
        explicit.broadcast = true;
      },
    };
  }
  return { send: (to) => s.noteSend(to), broadcast: () => s.noteBroadcast() };
}

async function routeOne(s: OutboxOwner, msg: OutboxMessage, turnId: string | null, track: ReturnType<typeof tracker>): Promise<void> {
  const routing = s.routing;
  switch (msg.kind) {
    case 'direct':
      track.send(msg.to);
      await routeDirect(routing, { from: s.name, to: msg.to, content: msg.content, turn: turnId });
      return;
    case 'broadcast':
      track.broadcast();
      await routeBroadcast(routing, { from: s.name, content: msg.content, turn: turnId });
      return;
    case 'ask':
      await routeAsk(routing, {
        from: s.name,
        to: msg.to,
        content: msg.content,
        replyTo: msg.replyTo,
        turn: turnId,
        workspaceReal: s.workspace,
      });
      return;
  }
}

/** One drain of `W/.outbox`, routing each entry as it is read; rejected files and a non-directory `.outbox` emit `outbox_rejected`. */
export async function drainAndRoute(s: OutboxOwner, turnId: string | null, sends?: TurnSends): Promise<void> {
  const emitRejected = (reason: string, file?: string): Promise<unknown> =>
    s.events.emit({
      type: 'outbox_rejected',
      swarm: s.swarm,
      agent: s.name,
      message: `Outbox entry of ${s.name} rejected (${reason}).`,
      metadata: { reason, ...(file === undefined ? {} : { file }) },
    });
  const track = tracker(s, sends);
  const onEntry = async (entry: OutboxEntry): Promise<void> => {
    if (entry.kind === 'rejected') await emitRejected(entry.reason, entry.file);
    else await routeOne(s, entry.message, turnId, track);
  };
  const r = await drainOutbox(s.workspace, onEntry, s.outboxMemo);
  if (r.kind === 'empty') return;
  if (r.kind === 'dir_rejected') {
    if (!s.outboxDirRejected) await emitRejected(r.reason);
    s.outboxDirRejected = true;
    return;
  }
  s.outboxDirRejected = false;
}

/**
 * After a cancelled turn's process has stopped: what it left in `W/.outbox` is deleted, never routed
 * (a cancelled turn routes nothing more). One `outbox_rejected` (`turn_cancelled`, `count`) when any.
 */
export async function discardOutbox(s: OutboxOwner, turnId: string): Promise<void> {
  let count = 0;
  await drainOutbox(
    s.workspace,
    () => {
      count += 1;
      return Promise.resolve();
    },
    s.outboxMemo,
  );
  if (count === 0) return;
  await s.events.emit({
    type: 'outbox_rejected',
    swarm: s.swarm,
    agent: s.name,
    message: `${count} outbox entr${count === 1 ? 'y' : 'ies'} of ${s.name} dropped: turn ${turnId} was cancelled.`,
    metadata: { reason: 'turn_cancelled', turn: turnId, count },
  });
}

/** In order: final outbox drain, marker blocks, then reply_to. */
export async function routeCompletion(s: OutboxOwner, turnId: string, reply: string, sends: TurnSends): Promise<void> {
  await s.drainOutbox(turnId, sends);
  const { blocks, replyText } = extractMarkers(reply);
  const track = tracker(s, sends);
  for (const b of blocks) {
    if (b.kind === 'to') {
      track.send(b.to);
      await routeDirect(s.routing, { from: s.name, to: b.to, content: b.content, turn: turnId });
    } else {
      track.broadcast();
      await routeBroadcast(s.routing, { from: s.name, content: b.content, turn: turnId });
    }
  }
  const sink = s.agentConfig()?.reply_to;
  if (sink === undefined || sends.broadcast || sends.sentTo.has(sink)) return;
  await deliverReplyTo(s, turnId, sink, replyText);
}

async function deliverReplyTo(s: OutboxOwner, turnId: string, sink: string, replyText: string): Promise<void> {
  const emit = (type: 'no_final_text' | 'auto_deliver_failed', message: string, metadata: Record<string, unknown>): Promise<unknown> =>
    s.events.emit({ type, swarm: s.swarm, agent: s.name, message, metadata });
  if (replyText === '') {
    await emit('no_final_text', `Turn ${turnId} of ${s.name} has no final text for ${sink}.`, { turn: turnId, reply_to: sink });
    return;
  }
  const obj = s.routing.kindOf(sink) === 'object' ? s.routing.object(sink) : undefined;
  if (obj === undefined) {
    await emit('auto_deliver_failed', `reply_to sink ${sink} is missing or not an object.`, { turn: turnId, reply_to: sink });
    return;
  }
  await logAndAnnounce(s.routing, { from: s.name, to: sink, content: replyText, turn: turnId }, 'direct');
  const out = await obj.deliver({ swarm: s.swarm, object: sink, from: s.name, content: replyText, type: 'direct' });
  if (out.kind === 'ok') await routeObjectResult(s.routing, sink, out.result, 1);
  else if (out.kind === 'failed') {
    await s.events.emit({
      type: 'object_error',
      swarm: s.swarm,
      agent: sink,
      message: `Object ${sink} failed to handle a reply.`,
      metadata: { error: out.error },
    });
  }
}
