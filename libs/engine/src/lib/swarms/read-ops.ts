/** Read-side operations over the running and the stored swarms: summaries, detail, events, messages. */
import { NAME_RE } from '@genswarms/ir-gate';
import { toStoreQuery, type EventFilterSet, type ParsedEventQuery } from '../events/event-query';
import type { EventPage } from '../service/swarm-service';
import type { MessageRow, StoredEvent } from '../store/store';
import type { Ports } from './engine-context';
import { assertName } from './helpers';
import { assertKnownSwarm } from './lifecycle';
import { runtimeDetail, runtimeSummary, storedDetail, storedSummary, type SwarmDetail, type SwarmSummary } from './status';
import { storedSwarm } from './stored-view';

/** Running swarms are summarised from their runtime; only a swarm without one has its stored config read. */
export async function listSwarms(ctx: Ports<'store' | 'runtimes'>): Promise<{ swarms: SwarmSummary[] }> {
  const swarms: SwarmSummary[] = [];
  for (const head of await ctx.store.listSwarmHeads()) {
    const rt = ctx.runtimes.get(head.name);
    swarms.push(rt !== undefined ? runtimeSummary(rt, head) : await storedSummary(ctx.store, head));
  }
  return { swarms };
}

export async function getSwarm(ctx: Ports<'store' | 'runtimes'>, swarm: string): Promise<SwarmDetail> {
  assertName('swarm', swarm);
  const rt = ctx.runtimes.get(swarm);
  if (rt !== undefined) return runtimeDetail(rt);
  return storedDetail(ctx.store, await storedSwarm(ctx, swarm));
}

/** Whether the swarm is running or known to the store. */
export async function hasSwarm(ctx: Ports<'store' | 'runtimes'>, swarm: string): Promise<boolean> {
  return NAME_RE.test(swarm) && (ctx.runtimes.has(swarm) || (await ctx.store.getSwarm(swarm)) !== null);
}

/** One page of stored events; the query (scope included) was parsed at the edge. */
export async function queryEvents(ctx: Ports<'store' | 'clock'>, query: ParsedEventQuery): Promise<EventPage> {
  const events = await ctx.store.queryEvents(toStoreQuery(query, ctx.clock.now()));
  return { events, count: events.length, query };
}

/** The newest `limit` events of a swarm matching any filter set, oldest first, each once. */
export async function recentEvents(
  ctx: Ports<'store' | 'clock'>,
  swarm: string,
  filters: readonly EventFilterSet[],
  limit: number,
): Promise<StoredEvent[]> {
  const seen = new Map<number, StoredEvent>();
  for (const set of filters) {
    const { events } = await queryEvents(ctx, { ...set, swarm, limit });
    for (const e of events) seen.set(e.id, e);
  }
  return [...seen.entries()]
    .sort(([a], [b]) => a - b)
    .slice(-limit)
    .map(([, e]) => e);
}

export async function listMessages(ctx: Ports<'store' | 'runtimes'>, swarm: string, limit: number): Promise<{ messages: MessageRow[] }> {
  await assertKnownSwarm(ctx, swarm);
  return { messages: await ctx.store.listMessages(swarm, limit) };
}
