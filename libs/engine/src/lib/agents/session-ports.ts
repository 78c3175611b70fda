/**
 * The effects port of an agent session: everything the runner of a turn does to the world (persist, emit,
 * push, deliver, watch, route, write receipts) goes through this interface, implemented by `AgentEffects`
 * (agent-effects.ts). The turn runner holds only a `TurnPort`: it never sees the session, and
 * tells it how a turn ended by its return value (`TurnEnd`, session-machine.ts).
 */
import type { PreparedTurnDir, TurnReceipt } from '@genswarms/receipts';
import type { TurnDelivery } from '@genswarms/runners';
import type { EventBus } from '../events/event-bus';
import type { FailureSite } from '../events/failure-report';
import type { EnginePush } from '../events/pushes';
import type { Store, TurnRow } from '../store/store';
import type { TimerHandle } from '../util/clock';

/** Sends a turn made so far (a `reply_to` sink that was already sent to gets no automatic reply). */
export interface TurnSends {
  readonly sentTo: Set<string>;
  broadcast: boolean;
}

/** The inbox file was written (its data settles in `flushed`), or writing it was refused. */
export type InboxWrite = { readonly ok: true; readonly flushed: Promise<void> } | { readonly ok: false; readonly detail: string };

/** What the runner of one agent's turns does to the world, and the few facts it reads. */
export interface TurnPort {
  readonly agent: string;
  readonly swarm: string;
  /** Persistence of a turn's progress and end. */
  readonly store: Pick<Store, 'finishTurn' | 'markTurnDelivered' | 'markTurnTimedOut'>;
  /** The event log (an `along` event is written in the store's transaction, announced after it). */
  readonly events: Pick<EventBus, 'emit' | 'along' | 'announce'>;
  push(push: EnginePush): void;
  /** Reports an internal failure (log line + `engine_error`); never throws. */
  report(where: FailureSite, error: unknown, metadata?: Record<string, unknown>): Promise<void>;
  /** ISO time now, and the same instant in ms. */
  now(): string;
  nowMs(): number;
  setTimer(ms: number, fire: () => void): TimerHandle;
  /** `turn_timeout_ms` of the agent's current config and client; undefined = none. */
  turnTimeoutMs(): number | undefined;
  /** The agent's current `reply_to` sink. */
  replyTo(): string | undefined;
  /** A TUI client takes its turns pasted, never as an inbox file. */
  isTui(): boolean;
  prepareTurnDir(turnId: string): Promise<PreparedTurnDir>;
  writeInbox(turn: TurnRow): Promise<InboxWrite>;
  /** Hands the turn to the running client (a no-op without one). */
  deliver(delivery: Omit<TurnDelivery, 'clientTurnsDir'>): Promise<void>;
  /** Waits for the turn's receipt (the runner's own watcher for a remote client). */
  watch(turnId: string, signal: AbortSignal): Promise<TurnReceipt>;
  writeHostReceipt(turnId: string, error: string): Promise<void>;
  /** Final outbox drain, markers, then `reply_to` (outbox-routing.ts). */
  route(turnId: string, reply: string, sends: TurnSends): Promise<void>;
  /** The sends of the turn now running (null between turns): what a poll-time drain routes counts for it. */
  trackSends(sends: TurnSends | null): void;
}
