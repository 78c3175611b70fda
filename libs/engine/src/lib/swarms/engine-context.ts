/**
 * The narrow ports an engine operation works with: persistence, events, pushes, time, handlers,
 * limits, paths and the table of running swarms. Operation modules take an `EngineContext`, never
 * the `Engine`, so they import only what they use and nothing imports the engine back.
 */
import type { EventBus } from '../events/event-bus';
import type { PushHub } from '../events/pushes';
import type { HandlerRegistry } from '../objects/handler';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
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

export interface EngineContext {
  readonly store: Store;
  readonly events: EventBus;
  readonly pushes: PushHub;
  readonly clock: Clock;
  readonly handlers: HandlerRegistry;
  readonly limits: EngineLimits;
  readonly paths: EnginePaths;
  readonly runtimes: RuntimeTable;
  /** What a new `SwarmRuntime` of this engine is built with. */
  runtimeDeps(): RuntimeDeps;
}
