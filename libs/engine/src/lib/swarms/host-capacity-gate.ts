/** The host-limit check before agents start (docs/runners.md "Host limits"): refuses what the host cannot hold. */
import type { AgentConfig } from '@genswarms/ir-gate';
import { checkHostCapacity, readHostLimits, type HostReadings } from '@genswarms/runners';
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
   */
  claim(agents: readonly AgentConfig[]): () => void {
    if (agents.length === 0) return () => undefined;
    const inFlight = [...this.claims].flat();
    const r = checkHostCapacity(this.read(), [...inFlight, ...agents]);
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
