/**
 * The host-limit check of a swarm recovered at `Engine.open()` (docs/architecture.md#recovery). What outlived the
 * server (tmux panes, containers, ssh agents re-attached from their stored description) already holds its tasks,
 * ptys and cgroups in the readings; only the descriptors and watches the new server will hold for it are charged,
 * and the agents recovery starts afresh are charged in full. A swarm that would take the host past a limit is
 * not recovered at all — never half-started: what outlived the server is stopped (never left running unowned),
 * its sessions are `stopped`, the swarm is `error`, and one `swarm_start_failed` event names the limit, its value,
 * what the swarm needs and the fix. The swarms recovered before it keep their room.
 */
import type { AgentConfig } from '@genswarms/ir-gate';
import { EngineError } from '../errors/engine-error';
import type { Ports } from './engine-context';

/** What recovery knows of one agent before it starts: its config and the backend its stored session ran on. */
export interface RecoveredAgent {
  readonly config: AgentConfig;
  /** The stored session description's backend (null: no session was recorded). */
  readonly storedBackend: string | null;
}

export type RecoveryRoom =
  { kind: 'claimed'; release: () => void } | { kind: 'refused'; error: EngineError; fresh: number; reattached: number };

/**
 * Claims the host room of a recovered swarm: the agents started afresh, with the server-side share of those
 * re-attachable from a stored session. Returns the release, or the `host_limit` refusal.
 */
export function claimRecoveryRoom(
  ctx: Ports<'limits'>,
  agents: readonly RecoveredAgent[],
  reattachable: ReadonlySet<string>,
): RecoveryRoom {
  const isReattached = (a: RecoveredAgent): boolean => a.storedBackend !== null && reattachable.has(a.storedBackend);
  const fresh = agents.filter((a) => !isReattached(a)).map((a) => a.config);
  const reattached = agents.filter(isReattached).map((a) => a.config);
  try {
    return { kind: 'claimed', release: ctx.limits.host.claim(fresh, { reattached }) };
  } catch (e) {
    if (e instanceof EngineError && e.code === 'host_limit')
      return { kind: 'refused', error: e, fresh: fresh.length, reattached: reattached.length };
    throw e;
  }
}

/** The operator's record of a swarm not recovered for a host limit: status `error`, one event, one server-log line. */
export async function recordHostLimitRecovery(
  ctx: Ports<'clock' | 'events' | 'store'>,
  swarm: string,
  refused: Extract<RecoveryRoom, { kind: 'refused' }>,
): Promise<void> {
  const at = ctx.clock.now().toISOString();
  for (const s of await ctx.store.listSessions(swarm)) await ctx.store.setSessionState(swarm, s.agent, 'stopped', null, at);
  await ctx.store.setSwarmStatus(swarm, 'error', at);
  const d = refused.error.details;
  const what = `Restarting ${refused.fresh} agent(s)${refused.reattached === 0 ? '' : ` and re-attaching ${refused.reattached}`}`;
  const sentence =
    `${what} would take the host past ${String(d['limit'])} (${String(d['value'])}, needs ${String(d['need'])}); ` +
    `the swarm was not recovered and what outlived the server of it was stopped. Raise it: ${String(d['fix'])}, then: genswarms restart ${swarm}.`;
  const fields = { error: refused.error.code, message: sentence, ...d };
  ctx.events.logError('swarm_start_failed', { swarm, ...fields });
  await ctx.events.emit({
    type: 'swarm_start_failed',
    swarm,
    agent: null,
    message: `Swarm ${swarm} was not recovered after the server restart: host_limit: ${sentence}`,
    metadata: fields,
  });
}
