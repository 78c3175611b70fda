/**
 * The narrow ports an engine operation works with: persistence, events, pushes, time, handlers,
 * limits, paths and the table of running swarms. Operation modules take an `EngineContext`, never
 * the `Engine`, so they import only what they use and nothing imports the engine back.
 */
import type { HandlerRegistry } from '../objects/handler';
import type { CorePorts } from '../util/core-ports';
import type { Limiter } from './bounded';
import type { HostCapacityGate } from './host-capacity-gate';
import type { RuntimeTable } from './runtime-table';
import type { RuntimeDeps } from './swarm-runtime';

export interface EngineLimits {
  /** Default agent cap for dynamic mutations (a swarm's own `max_agents` may lower it). */
  readonly maxAgents: number;
  /** The host-limit gate a start, scale or add claims its agents at (host-capacity-gate.ts). */
  readonly host: HostCapacityGate;
}

export interface EnginePaths {
  /** Real path of GENSWARMS_HOME. */
  readonly home: string;
  /** Root of `{path}` configs and base of inline configs. */
  readonly configDir: string;
  /** Root of the read-only skills catalogue. */
  readonly skillsRoot: string;
}

export interface EngineContext extends CorePorts {
  readonly handlers: HandlerRegistry;
  readonly limits: EngineLimits;
  readonly paths: EnginePaths;
  readonly runtimes: RuntimeTable;
  /** Launch slots shared by every swarm starting at once (bounded.ts). */
  readonly launchSlots: Limiter;
  /** What a new `SwarmRuntime` of this engine is built with. */
  runtimeDeps(): RuntimeDeps;
}

/** The part of the context an operation uses: each operation names the ports it needs, nothing more. */
export type Ports<K extends keyof EngineContext> = Pick<EngineContext, K>;
