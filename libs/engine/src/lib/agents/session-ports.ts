/**
 * The narrow views an agent session gives the code that works for it, so that code depends on an
 * interface, never on `AgentSession` (no import circle, no `session.host.…` chains).
 */
import type { AgentConfig } from '@genswarms/ir-gate';
import type { AgentLaunchSpec, RunnerHandle } from '@genswarms/runners';
import type { EventBus } from '../events/event-bus';
import type { FailureSite } from '../events/failure-report';
import type { PushHub } from '../events/pushes';
import type { OutboxMemo } from '../routing/outbox';
import type { RoutingHost } from '../routing/router';
import type { AttentionInfo, SessionState, Store } from '../store/store';
import type { Clock } from '../util/clock';

/** Sends a turn made so far (a `reply_to` sink that was already sent to gets no automatic reply). */
export interface TurnSends {
  readonly sentTo: Set<string>;
  broadcast: boolean;
}

/** What a `TurnRunner` needs from the session whose turns it runs. */
export interface TurnHost {
  readonly name: string;
  readonly swarm: string;
  readonly workspace: string;
  readonly isTui: boolean;
  readonly spec: AgentLaunchSpec;
  readonly handle: RunnerHandle | null;
  /** The session's state now (a turn that ends after the agent failed or stopped leaves it so). */
  readonly state: SessionState;
  readonly store: Store;
  readonly events: EventBus;
  readonly pushes: PushHub;
  readonly clock: Clock;
  /** Receipt watcher poll (ms); undefined = the watcher's default. */
  readonly receiptPollMs: number | undefined;
  /** The agent's current effective config. */
  agentConfig(): AgentConfig | undefined;
  now(): string;
  setState(state: SessionState, attention?: AttentionInfo | null): Promise<void>;
  /** Schedules the next dispatch. */
  kick(): void;
  /** Reports an internal failure (log line + `engine_error`); never throws. */
  report(where: FailureSite, error: unknown, metadata?: Record<string, unknown>): Promise<void>;
  /** Final outbox drain, markers, then `reply_to` (outbox-routing.ts). */
  routeCompletion(turnId: string, reply: string, sends: TurnSends): Promise<void>;
}

/** What outbox routing needs from the agent whose outbox and reply it routes. */
export interface OutboxOwner {
  readonly name: string;
  readonly swarm: string;
  readonly workspace: string;
  readonly events: EventBus;
  readonly routing: RoutingHost;
  /** Outbox entries that could not be removed, reported once. */
  readonly outboxMemo: OutboxMemo;
  /** One `outbox_rejected` per period of a non-directory `.outbox`. */
  outboxDirRejected: boolean;
  agentConfig(): AgentConfig | undefined;
  /** Records a send of the current turn (outside a turn: nothing). */
  noteSend(to: string): void;
  noteBroadcast(): void;
  /** The serialised drain of this agent's outbox. */
  drainOutbox(turnId: string | null, sends?: TurnSends): Promise<void>;
}
