/** What an agent session needs from its swarm: persistence, events, pushes, time and routing. */
import type { AgentConfig } from '@genswarms/ir-gate';
import type { RunnerContext, RunnerRegistry } from '@genswarms/runners';
import type { RoutingHost } from '../routing/router';
import type { CorePorts } from '../util/core-ports';

export interface SessionHost extends CorePorts {
  readonly swarm: string;
  readonly routing: RoutingHost;
  readonly runners: RunnerRegistry;
  /** The runner context `agent` is planned, started and re-attached with (its own ids on a per-agent-uid server). */
  contextFor(agent: string): RunnerContext;
  /** The agent's current effective config. */
  agentConfig(agent: string): AgentConfig | undefined;
  /** Watcher poll period (ms) for receipts; default 250. */
  readonly receiptPollMs?: number;
  /** Outbox poll period (ms); default 500. */
  readonly outboxPollMs: number;
  /** Awaiting timer (ms); default 90 000. */
  readonly awaitingMs: number;
}

export const OPERATOR_FROM = '_operator';
export const LOG_KEEP_LINES = 500;
/** Characters of output kept per agent (`GET …/logs`): 500 lines of 64 Ki characters would be 64 MB of memory per agent. */
export const LOG_KEEP_CHARS = 1_048_576;
