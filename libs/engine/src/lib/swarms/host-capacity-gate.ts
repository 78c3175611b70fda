/** The host-limit check before agents start (docs/runners.md "Host limits"): refuses what the host cannot hold. */
import type { AgentConfig } from '@genswarms/ir-gate';
import { checkHostCapacity, countByRunner, demandOf, readHostLimits, type HostReadings } from '@genswarms/runners';
import { EngineError } from '../errors/engine-error';

/** Reads the host's limits and their use now (injectable: a test host with small limits). */
export type HostLimitsReader = () => HostReadings;

export const SYSTEM_HOST_LIMITS: HostLimitsReader = () => readHostLimits();

/**
 * One engine's host-limit gate. A start, scale or add claims its agents before anything of it is created and holds
 * them until its launches are done: the readings show only agents already running, so the agents of every other
 * claim still in flight are charged too (two starts at once cannot each take the same room). A started agent is
 * counted twice until its claim is released: the check errs on refusing.
 */
export class HostCapacityGate {
  private readonly claims = new Set<readonly AgentConfig[]>();

  constructor(private readonly read: HostLimitsReader) {}

  /**
   * Throws 503 `host_limit` (`limit`, `value`, `need`, `fix`) when `agents`, with every claim in flight, would take
   * the host past a limit; else holds them and returns the release (call it once the launches are done, failed or not).
   * `reattached`: agents recovery re-attaches (their processes outlived the server and are in the readings); the
   * descriptors and watches the server will hold for them are charged on top.
   */
  claim(agents: readonly AgentConfig[], opts: { reattached?: readonly AgentConfig[] } = {}): () => void {
    if (agents.length === 0) return () => undefined;
    const inFlight = [...this.claims].flat();
    const r = checkHostCapacity(withServerSideOf(this.read(), opts.reattached ?? []), [...inFlight, ...agents]);
    if (r.kind === 'exceeded') {
      const others = inFlight.length === 0 ? '' : ` (with ${inFlight.length} agent(s) of other starts in flight)`;
      throw new EngineError(
        'host_limit',
        `Starting ${agents.length} agent(s)${others} would take the host past ${r.limit} (${r.value}, needs ${r.need}); nothing was started. Raise it: ${r.fix}.`,
        { limit: r.limit, value: r.value, need: r.need, fix: r.fix },
      );
    }
    const held = [...agents];
    this.claims.add(held);
    return () => void this.claims.delete(held);
  }
}

/**
 * `r` with the server-side share (descriptors, inotify watches) of `reattached` added to what is in use: those are
 * the new server's own and are not held yet when recovery checks, while their tasks, ptys and cgroups are.
 */
function withServerSideOf(r: HostReadings, reattached: readonly AgentConfig[]): HostReadings {
  if (reattached.length === 0) return r;
  const held = demandOf(countByRunner(reattached));
  return {
    ...r,
    nofile: { ...r.nofile, used: r.nofile.used + held.fds },
    inotifyWatches: { ...r.inotifyWatches, used: r.inotifyWatches.used + held.watches },
  };
}
