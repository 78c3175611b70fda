/**
 * docs/rest-api.md agent history: the items an agent received (dispatched turns and items still queued)
 * and the messages it sent (message log), newest first. Content is previewed (≤ 100 chars), never whole.
 */
import type { MessageRow, TurnRow } from '../store/store';
import { contentPreview } from '../util/preview';
import { assertKnownAgent } from './agent-ops';
import type { Ports } from './engine-context';

export const HISTORY_MAX = 1000;
export const HISTORY_DEFAULT = 100;

export interface ReceivedEntry {
  readonly direction: 'received';
  readonly timestamp: string;
  /** The inbox item id (as `POST .../task` answered). */
  readonly id: string;
  readonly kind: 'task' | 'message';
  readonly from: string;
  readonly content_preview: string;
  /** The turn that handled it, or null while it is still queued. */
  readonly turn: string | null;
  /** `queued`, or the turn's status. */
  readonly status: string;
}

export interface SentEntry {
  readonly direction: 'sent';
  readonly timestamp: string;
  /** The message-log id. */
  readonly id: number;
  readonly type: 'direct' | 'ask' | 'broadcast';
  readonly to: string | readonly string[];
  readonly content_preview: string;
  /** The turn during which it was sent (null for sends outside a turn). */
  readonly turn: string | null;
}

export type HistoryEntry = ReceivedEntry | SentEntry;

function fromTurn(t: TurnRow): ReceivedEntry {
  return {
    direction: 'received',
    timestamp: t.receivedAt ?? t.startedAt,
    id: t.itemId,
    kind: t.kind,
    from: t.from,
    content_preview: contentPreview(t.content),
    turn: t.id,
    status: t.status,
  };
}

function fromMessage(m: MessageRow): SentEntry {
  return { direction: 'sent', timestamp: m.timestamp, id: m.id, type: m.type, to: m.to, content_preview: m.content_preview, turn: m.turn };
}

/** `{history}` newest first, at most `limit` (1-1000, default 100; the edge checks the range). */
export async function agentHistory(
  ctx: Ports<'runtimes' | 'store'>,
  swarm: string,
  agent: string,
  limit = HISTORY_DEFAULT,
): Promise<{ history: HistoryEntry[] }> {
  await assertKnownAgent(ctx, swarm, agent);
  const queued = (await ctx.store.listInbox(swarm, agent)).map((i): ReceivedEntry => ({
    direction: 'received',
    timestamp: i.createdAt,
    id: i.id,
    kind: i.kind,
    from: i.from,
    content_preview: contentPreview(i.content),
    turn: null,
    status: 'queued',
  }));
  const turns = (await ctx.store.listTurns(swarm, agent, limit)).map(fromTurn);
  const sent = (await ctx.store.listMessagesFrom(swarm, agent, limit)).map(fromMessage);
  const all: HistoryEntry[] = [...queued.reverse().slice(0, limit), ...turns, ...sent];
  // Stable sort, newest first; ISO-8601 UTC timestamps compare as strings.
  return { history: all.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0)).slice(0, limit) };
}
