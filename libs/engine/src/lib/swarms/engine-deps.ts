/** Engine construction options: every dependency is injected (no process.env, no globals). */
import type { RunnerContext, RunnerRegistry } from '@genswarms/runners';
import type { EngineLog } from '../events/failure-report';
import type { HandlerRegistry } from '../objects/handler';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { HostLimitsReader } from './host-capacity-gate';

export interface EngineOptions {
  /** Real path of GENSWARMS_HOME (the app created and checked it). */
  readonly home: string;
  /** Root for `{path}` configs and the base of inline configs (GENSWARMS_SWARM_CONFIG_DIR, real path). */
  readonly configDir: string;
  readonly runners: RunnerRegistry;
  readonly runnerContext: RunnerContext;
  /** Default agent cap for dynamic mutations (GENSWARMS_MAX_AGENTS_PER_SWARM), default 100. */
  readonly maxAgentsPerSwarm?: number;
  /** Default: a SqliteStore at `<home>/genswarms.db`. */
  readonly store?: Store;
  readonly clock?: Clock;
  /** Default: the built-ins; embedders register more before `open`. */
  readonly handlers?: HandlerRegistry;
  /** Receipt watcher poll (ms), default 250. */
  readonly receiptPollMs?: number;
  /** Outbox poll (ms), default 500. */
  readonly outboxPollMs?: number;
  /** Root of the read-only skills catalogue (GENSWARMS_SKILLS_ROOT); default `<home>/skills`. */
  readonly skillsRoot?: string;
  /** Awaiting timer (ms), default 90 000. */
  readonly awaitingMs?: number;
  /** Where internal failures are logged (besides their `engine_error` event); default one JSON line on stderr. */
  readonly log?: EngineLog;
  /** Reads the host's limits before agents start; default this process's /proc view (readHostLimits). */
  readonly readHostLimits?: HostLimitsReader;
}

export const OUTBOX_POLL_MS = 500;
export const AWAITING_MS = 90_000;
