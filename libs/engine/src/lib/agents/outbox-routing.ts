/**
 * Routing of what an agent produced: outbox files, marker blocks and `reply_to` (docs/messaging.md). One
 * `OutboxRouter` per agent owns the order of its drains (the poll and a turn's final drain never overlap), the
 * entries it could not remove, and which turn's sends a drain counts for. It reaches the swarm only through the
 * session host; the effects port that owns it passes the workspace in and is never called back.
 */
import type { EmitInput } from '../events/event-bus';
import { routeAsk } from '../routing/asks';
import { extractMarkers } from '../routing/markers';
import { drainOutbox, newOutboxMemo, type OutboxEntry, type OutboxMemo, type OutboxMessage } from '../routing/outbox';
import { logAndAnnounce, routeBroadcast, routeDirect, routeObjectResult } from '../routing/router';
import type { SessionHost } from './session-host';
import type { TurnSends } from './session-ports';

type Track = { send(to: string): void; broadcast(): void };

export class OutboxRouter {
  /** Outbox entries that could not be removed, reported once (routing/outbox.ts). */
  private readonly memo: OutboxMemo = newOutboxMemo();
  /** One `outbox_rejected` per period of a non-directory `.outbox`. */
  private dirRejected = false;
  private busy: Promise<void> = Promise.resolve();
  /** The sends of the turn now running (null between turns): what a poll-time drain routes counts for it. */
  private active: TurnSends | null = null;

  constructor(
    private readonly host: Pick<SessionHost, 'swarm' | 'events' | 'routing' | 'agentConfig'>,
    private readonly name: string,
  ) {}

  track(sends: TurnSends | null): void {
    this.active = sends;
  }

  /** Serialised drain of `W/.outbox`: each entry routed as it is read (the sends count for `sends`, else the running turn). */
  drain(workspace: string, turnId: string | null, sends?: TurnSends): Promise<void> {
    return this.inOrder(() => this.drainAndRoute(workspace, turnId, sends));
  }

  /**
   * After a cancelled turn's process has stopped: what it left in `W/.outbox` is deleted, never routed
   * (a cancelled turn routes nothing more). One `outbox_rejected` (`turn_cancelled`, `count`) when any.
   */
  discard(workspace: string, turnId: string): Promise<void> {
    return this.inOrder(async () => {
      let count = 0;
      await drainOutbox(
        workspace,
        () => {
          count += 1;
          return Promise.resolve();
        },
        this.memo,
      );
      if (count === 0) return;
      await this.emit({
        type: 'outbox_rejected',
        message: `${count} outbox entr${count === 1 ? 'y' : 'ies'} of ${this.name} dropped: turn ${turnId} was cancelled.`,
        metadata: { reason: 'turn_cancelled', turn: turnId, count },
      });
    });
  }

  /** At a turn's completion, in order: final outbox drain, marker blocks, then reply_to. */
  async complete(workspace: string, turnId: string, reply: string, sends: TurnSends): Promise<void> {
    await this.drain(workspace, turnId, sends);
    const { blocks, replyText } = extractMarkers(reply);
    const track = this.tracker(sends);
    for (const b of blocks) {
      if (b.kind === 'to') {
        track.send(b.to);
        await routeDirect(this.host.routing, { from: this.name, to: b.to, content: b.content, turn: turnId });
      } else {
        track.broadcast();
        await routeBroadcast(this.host.routing, { from: this.name, content: b.content, turn: turnId });
      }
    }
    const sink = this.host.agentConfig(this.name)?.reply_to;
    if (sink === undefined || sends.broadcast || sends.sentTo.has(sink)) return;
    await this.deliverReplyTo(turnId, sink, replyText);
  }

  private inOrder(run: () => Promise<void>): Promise<void> {
    const next = this.busy.then(run);
    this.busy = next.catch(() => undefined); // expected: the chain only orders drains; `next`'s caller gets the failure
    return next;
  }

  private emit(input: Omit<EmitInput, 'swarm' | 'agent'>, agent: string = this.name): Promise<unknown> {
    return this.host.events.emit({ ...input, swarm: this.host.swarm, agent });
  }

  /** Counts sends for `explicit`, else for whichever turn is running when each send is routed. */
  private tracker(explicit: TurnSends | undefined): Track {
    if (explicit !== undefined)
      return {
        send: (to) => explicit.sentTo.add(to),
        broadcast: () => {
          explicit.broadcast = true;
        },
      };
    return {
      send: (to) => this.active?.sentTo.add(to),
      broadcast: () => {
        if (this.active !== null) this.active.broadcast = true;
      },
    };
  }

  /** Rejected files and a non-directory `.outbox` emit `outbox_rejected`. */
  private async drainAndRoute(workspace: string, turnId: string | null, sends?: TurnSends): Promise<void> {
    const emitRejected = (reason: string, file?: string): Promise<unknown> =>
      this.emit({
        type: 'outbox_rejected',
        message: `Outbox entry of ${this.name} rejected (${reason}).`,
        metadata: { reason, ...(file === undefined ? {} : { file }) },
      });
    const track = this.tracker(sends);
    const onEntry = async (entry: OutboxEntry): Promise<void> => {
      if (entry.kind === 'rejected') await emitRejected(entry.reason, entry.file);
      else await this.routeOne(workspace, entry.message, turnId, track);
    };
    const r = await drainOutbox(workspace, onEntry, this.memo);
    if (r.kind === 'empty') return;
    if (r.kind === 'dir_rejected') {
      if (!this.dirRejected) await emitRejected(r.reason);
      this.dirRejected = true;
      return;
    }
    this.dirRejected = false;
  }

  private async routeOne(workspace: string, msg: OutboxMessage, turnId: string | null, track: Track): Promise<void> {
    const routing = this.host.routing;
    switch (msg.kind) {
      case 'direct':
        track.send(msg.to);
        await routeDirect(routing, { from: this.name, to: msg.to, content: msg.content, turn: turnId });
        return;
      case 'broadcast':
        track.broadcast();
        await routeBroadcast(routing, { from: this.name, content: msg.content, turn: turnId });
        return;
      case 'ask':
        await routeAsk(routing, {
          from: this.name,
          to: msg.to,
          content: msg.content,
          replyTo: msg.replyTo,
          turn: turnId,
          workspaceReal: workspace,
        });
        return;
    }
  }

  private async deliverReplyTo(turnId: string, sink: string, replyText: string): Promise<void> {
    if (replyText === '') {
      const message = `Turn ${turnId} of ${this.name} has no final text for ${sink}.`;
      await this.emit({ type: 'no_final_text', message, metadata: { turn: turnId, reply_to: sink } });
      return;
    }
    const routing = this.host.routing;
    const obj = routing.kindOf(sink) === 'object' ? routing.object(sink) : undefined;
    if (obj === undefined) {
      const message = `reply_to sink ${sink} is missing or not an object.`;
      await this.emit({ type: 'auto_deliver_failed', message, metadata: { turn: turnId, reply_to: sink } });
      return;
    }
    await logAndAnnounce(routing, { from: this.name, to: sink, content: replyText, turn: turnId }, 'direct');
    const out = await obj.deliver({ swarm: this.host.swarm, object: sink, from: this.name, content: replyText, type: 'direct' });
    if (out.kind === 'ok') await routeObjectResult(routing, sink, out.result, 1);
    else if (out.kind === 'failed') {
      const message = `Object ${sink} failed to handle a reply.`;
      await this.emit({ type: 'object_error', message, metadata: { error: out.error } }, sink);
    }
  }
}
