/**
 * The vocabulary of the session machine (session-machine.ts): its state, the events it takes, the decisions it
 * returns, and how the turn runner reports a turn's end. Types only.
 */
import type { AgentFailure } from './agent-failure';
import type { AttentionInfo, EventAlong, SessionState, TurnRow } from '../store/store';
import type { FailureSite } from '../events/failure-report';

export interface SessionMachine {
  readonly state: SessionState;
  /** Why the agent waits for its operator; null unless `needs_attention` (kept on a start with a persisted hold). */
  readonly attention: AttentionInfo | null;
  /** Why the agent is `failed`; null in every other state. */
  readonly failure: AgentFailure | null;
  /** Stopped, released or abandoned: no new work is scheduled. */
  readonly closed: boolean;
  /** The agent asked and waits for a reply: only `message` items are dispatched until one comes or the timer ends. */
  readonly awaiting: boolean;
  /** A dispatch (store read of the next item) is in flight; at most one per agent. */
  readonly dispatching: boolean;
  /** A kick came while a dispatch was in flight: one more dispatch after it. */
  readonly kickAgain: boolean;
  /** A dispatch failure is reported once per streak of failures, not on every retry. */
  readonly dispatchFailing: boolean;
  readonly dispatchRetryArmed: boolean;
  readonly storageRetryArmed: boolean;
}

/** How a turn run ended, as the turn runner reports it (turn-runner.ts); the machine decides what the agent does next. */
export type TurnEnd =
  /** Its receipt was applied (completed or failed) or it failed delivery: the agent takes the next item. */
  | { readonly kind: 'finished' }
  /** The runner could not deliver it; with attention (client_prompt_blocked) the agent waits for its operator. */
  | { readonly kind: 'undelivered'; readonly attention: AttentionInfo | null }
  /** Its receipt or turn directory was refused: the agent needs attention, nothing is routed. */
  | { readonly kind: 'rejected'; readonly reason: string; readonly turn: string }
  /** Cancelled, abandoned or already final: nothing follows from it. */
  | { readonly kind: 'dropped' };

export type SessionEvent =
  | { readonly type: 'launching' }
  /** After launch: `stuck` = the client's ready screen never came; `keep` = a hold to keep (isolation, recovery). */
  | { readonly type: 'ready'; readonly keep: AttentionInfo | null; readonly stuck: AttentionInfo | null }
  /** Recovery re-attached the agent mid-turn: it resumes that turn. */
  | { readonly type: 'resume_busy'; readonly turn: TurnRow; readonly redeliver: boolean }
  | { readonly type: 'kick' }
  | { readonly type: 'dispatched'; readonly turn: TurnRow | null; readonly started: EventAlong<TurnRow> }
  | { readonly type: 'dispatch_failed'; readonly error: unknown }
  | { readonly type: 'dispatch_retry_fired' }
  | { readonly type: 'turn_ended'; readonly end: TurnEnd }
  /** A turn threw inside the engine; `storageFull`: the disk was full while it was stored. */
  | { readonly type: 'turn_threw'; readonly turn: TurnRow; readonly error: unknown; readonly storageFull: boolean }
  /** The throw was reported (its `report_turn` decision done). */
  | { readonly type: 'turn_reported'; readonly turn: TurnRow }
  /** The thrown turn was settled `engine_error` in the store. */
  | { readonly type: 'turn_settled'; readonly turn: TurnRow }
  | { readonly type: 'turn_settle_failed'; readonly turn: TurnRow; readonly error: unknown }
  | { readonly type: 'storage_retry_fired'; readonly turn: TurnRow }
  /** The turn re-read after a full disk (null: gone). */
  | { readonly type: 'turn_reread'; readonly row: TurnRow | null }
  | { readonly type: 'awaiting_marked' }
  | { readonly type: 'awaiting_cleared' }
  | { readonly type: 'awaiting_expired' }
  /** A message was queued for this agent: awaiting ends and the scheduler runs. */
  | { readonly type: 'message_queued' }
  | { readonly type: 'client_blocked'; readonly attention: AttentionInfo }
  | { readonly type: 'failed'; readonly failure: AgentFailure; readonly metadata: Record<string, unknown>; readonly cause?: unknown }
  /** The operator resumes a held agent; `turnOpen`: a turn is still open (it goes on with it). */
  | { readonly type: 'operator_resume'; readonly turnOpen: boolean }
  | { readonly type: 'stopping' }
  | { readonly type: 'stopped' }
  | { readonly type: 'abandoned' };

export type AttentionWording = 'hold' | 'rejected';

export type Decision =
  /** Store the state (and attention) and push `agent_status` when it changed. */
  | {
      readonly kind: 'persist_state';
      readonly state: SessionState;
      readonly previous: SessionState;
      readonly attention: AttentionInfo | null;
    }
  /** Push `agent_status` only (the dispatch already stored `busy` in its transaction). */
  | { readonly kind: 'push_status'; readonly state: SessionState; readonly previous: SessionState }
  /** One `agent_needs_attention` and the `needs_attention` push. */
  | { readonly kind: 'announce_attention'; readonly attention: AttentionInfo; readonly wording: AttentionWording }
  | { readonly kind: 'announce_ready' }
  | { readonly kind: 'announce_resumed_turn'; readonly turn: TurnRow }
  | { readonly kind: 'announce'; readonly along: EventAlong<TurnRow> }
  | {
      readonly kind: 'record_failure';
      readonly failure: AgentFailure;
      readonly metadata: Record<string, unknown>;
      readonly cause?: unknown;
    }
  | { readonly kind: 'report'; readonly where: FailureSite; readonly error: unknown; readonly metadata: Record<string, unknown> }
  /** Report a turn that threw inside the engine, then answer `turn_reported`. */
  | { readonly kind: 'report_turn'; readonly turn: TurnRow; readonly error: unknown }
  /** Read the next item (exactly once, in one transaction) and answer `dispatched` or `dispatch_failed`. */
  | { readonly kind: 'dispatch'; readonly messagesOnly: boolean }
  | {
      readonly kind: 'run_turn';
      readonly turn: TurnRow;
      readonly fresh: boolean;
      readonly redeliver?: boolean;
      readonly startRecorded?: boolean;
    }
  /** Settle a thrown turn `engine_error`; answers `turn_settled` or `turn_settle_failed`. */
  | { readonly kind: 'settle_turn'; readonly turn: TurnRow }
  /** Re-read a turn a full disk kept from being stored; answers `turn_reread` (or `turn_threw`). */
  | { readonly kind: 'reread_turn'; readonly turn: TurnRow }
  | { readonly kind: 'arm_dispatch_retry' }
  | { readonly kind: 'arm_storage_retry'; readonly turn: TurnRow }
  | { readonly kind: 'arm_await_timer' }
  | { readonly kind: 'cancel_await_timer' }
  /** Cancel every timer of the session and close its outbox poll. */
  | { readonly kind: 'stop_timers' }
  | { readonly kind: 'start_outbox_poll' }
  | { readonly kind: 'abort_ready_wait' }
  /** Feed `kick` back (judged when reached, after the decisions before it ran). */
  | { readonly kind: 'kick' };

export interface Step {
  readonly machine: SessionMachine;
  readonly decisions: readonly Decision[];
}
