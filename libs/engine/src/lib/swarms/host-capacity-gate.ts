/** The host-limit check before agents start (docs/runners.md "Host limits"): refuses what the host cannot hold. */
import type { AgentConfig } from '@genswarms/ir-gate';
import { checkHostCapacity, readHostLimits, type HostReadings } from '@genswarms/runners';
import { EngineError } from '../errors/engine-error';

/** Reads the host's limits and their use now (injectable: a test host with small limits). */
export type HostLimitsReader = () => HostReadings;

export const SYSTEM_HOST_LIMITS: HostLimitsReader = () => readHostLimits();

/**
 * Throws 503 `host_limit` (`limit`, `value`, `need`, `fix`) when starting `agents` now would take the host past a
 * limit; called before anything of the start, scale or add is created, so a refusal leaves nothing half-started.
 */
export function assertHostCapacity(read: HostLimitsReader, agents: readonly AgentConfig[]): void {
  if (agents.length === 0) return;
  const r = checkHostCapacity(read(), agents);
  if (r.kind === 'ok') return;
  throw new EngineError(
    'host_limit',
    `Starting ${agents.length} agent(s) would take the host past ${r.limit} (${r.value}, needs ${r.need}); nothing was started. Raise it: ${r.fix}.`,
    { limit: r.limit, value: r.value, need: r.need, fix: r.fix },
  );
}
