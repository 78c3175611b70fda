/**
 * The turn and dispatch state machine of one agent session, pure: `step(machine, event)` returns the next machine
 * and the decisions the session must carry out, in order. No I/O, no timers, no clock: whatever an event needs
 * to know (the dispatched turn, the attention found) comes in the event; whatever must happen goes out as a
 * decision. The session (agent-session.ts) feeds the events and executes the decisions through its effects port.
 *
 * A decision whose effect ends in something the machine must judge (a dispatch's result, a turn's end, a
 * timer firing) comes back as a new event, judged against the machine *at that moment*: an agent that failed
 * or was stopped while the effect ran is never moved back to idle by it.
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

export const INITIAL_MACHINE: SessionMachine = Object.freeze({
  state: 'starting',
  attention: null,
  failure: null,
  closed: false,
  awaiting: false,
  dispatching: false,
  kickAgain: false,
  dispatchFailing: false,
  dispatchRetryArmed: false,
  storageRetryArmed: false,
});

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

/** A task may be queued only for an agent that can take it; `null` = accepted. */
export type TaskRefusal = { readonly code: 'agent_not_ready'; readonly state: SessionState } | { readonly code: 'needs_attention' } | null;

export function taskRefusal(m: SessionMachine): TaskRefusal {
  if (m.state === 'starting' || m.state === 'failed' || m.state === 'stopped') return { code: 'agent_not_ready', state: m.state };
  if (m.state === 'needs_attention') return { code: 'needs_attention' };
  return null;
}

/** Operator resume is legal only from `needs_attention`; `null` = legal. */
export function resumeRefusal(m: SessionMachine): { readonly code: 'invalid_state'; readonly state: SessionState } | null {
  return m.state === 'needs_attention' ? null : { code: 'invalid_state', state: m.state };
}

const same = (machine: SessionMachine): Step => ({ machine, decisions: [] });

/** A persisted state change; leaving `failed` forgets the failure. */
function moveTo(m: SessionMachine, state: SessionState, attention: AttentionInfo | null = null): Step {
  return {
    machine: { ...m, state, attention, failure: state === 'failed' ? m.failure : null },
    decisions: [{ kind: 'persist_state', state, previous: m.state, attention }],
  };
}

function then(step: Step, ...more: Decision[]): Step {
  return { machine: step.machine, decisions: [...step.decisions, ...more] };
}

function isDone(m: SessionMachine): boolean {
  return m.state === 'failed' || m.state === 'stopped';
}

/** The agent waits for its operator (client_prompt_blocked, isolation, a rejected receipt). */
function hold(m: SessionMachine, attention: AttentionInfo, wording: AttentionWording = 'hold'): Step {
  return then(moveTo(m, 'needs_attention', attention), { kind: 'announce_attention', attention, wording });
}

/** After a turn: the next item, unless the agent failed or stopped meanwhile (it stays so; its queue waits). */
function becomeIdle(m: SessionMachine): Step {
  return isDone(m) ? same(m) : then(moveTo(m, 'idle'), { kind: 'kick' });
}

/** The dispatch in flight ended: one more if a kick came meanwhile. */
function dispatchEnded(m: SessionMachine, decisions: readonly Decision[], failing: boolean): Step {
  const machine = { ...m, dispatching: false, kickAgain: false, dispatchFailing: failing };
  return { machine, decisions: m.kickAgain ? [...decisions, { kind: 'kick' }] : decisions };
}

function stopTimers(m: SessionMachine): SessionMachine {
  return { ...m, awaiting: false, dispatchRetryArmed: false, storageRetryArmed: false };
}

export function step(m: SessionMachine, e: SessionEvent): Step {
  switch (e.type) {
    case 'launching':
      // the failure of a previous run stays visible until the new run leaves `starting`
      return same({ ...m, state: 'starting', attention: null, closed: false });
    case 'ready':
      if (isDone(m) || m.closed) return same(m);
      return then(
        e.stuck !== null ? hold(m, e.stuck) : e.keep !== null ? moveTo(m, 'needs_attention', e.keep) : moveTo(m, 'idle'),
        { kind: 'announce_ready' },
        { kind: 'start_outbox_poll' },
        { kind: 'kick' },
      );
    case 'resume_busy':
      return then(
        moveTo(m, 'busy'),
        { kind: 'announce_resumed_turn', turn: e.turn },
        { kind: 'start_outbox_poll' },
        { kind: 'run_turn', turn: e.turn, fresh: !e.turn.delivered, redeliver: e.redeliver },
      );
    case 'kick':
      if (m.dispatching) return same({ ...m, kickAgain: true });
      if (m.state !== 'idle' || m.closed) return same(m);
      return { machine: { ...m, dispatching: true }, decisions: [{ kind: 'dispatch', messagesOnly: m.awaiting }] };
    case 'dispatched':
      return dispatched(m, e.turn, e.started);
    case 'dispatch_failed': {
      const report: Decision[] = m.dispatchFailing ? [] : [{ kind: 'report', where: 'dispatch', error: e.error, metadata: {} }];
      const arm = !m.closed && !m.dispatchRetryArmed;
      const next = dispatchEnded({ ...m, dispatchRetryArmed: m.dispatchRetryArmed || arm }, report, true);
      return arm ? then(next, { kind: 'arm_dispatch_retry' }) : next;
    }
    case 'dispatch_retry_fired':
      return { machine: { ...m, dispatchRetryArmed: false }, decisions: m.closed ? [] : [{ kind: 'kick' }] };
    case 'turn_ended':
      return turnEnded(m, e.end);
    case 'turn_threw':
      if (e.storageFull) {
        if (m.closed || m.storageRetryArmed) return same(m);
        return { machine: { ...m, storageRetryArmed: true }, decisions: [{ kind: 'arm_storage_retry', turn: e.turn }] };
      }
      return { machine: m, decisions: [{ kind: 'report_turn', turn: e.turn, error: e.error }] };
    case 'turn_reported':
      return m.closed ? same(m) : { machine: m, decisions: [{ kind: 'settle_turn', turn: e.turn }] };
    case 'turn_settled':
      // a rejected receipt keeps the agent held (stored again as it is); failed and stopped stay
      if (m.state === 'needs_attention') return moveTo(m, 'needs_attention', m.attention);
      return m.state === 'busy' || m.state === 'idle' ? then(moveTo(m, 'idle'), { kind: 'kick' }) : same(m);
    case 'turn_settle_failed': {
      const failure = {
        code: 'engine_error',
        message: `turn ${e.turn.id} could not be settled in the store; restart the agent`,
        details: {},
      };
      const report: Decision = { kind: 'report', where: 'turn_settle', error: e.error, metadata: { turn: e.turn.id } };
      const failed = fail(m, failure, { turn: e.turn.id });
      return { machine: failed.machine, decisions: [report, ...failed.decisions] };
    }
    case 'storage_retry_fired':
      return { machine: { ...m, storageRetryArmed: false }, decisions: m.closed ? [] : [{ kind: 'reread_turn', turn: e.turn }] };
    case 'turn_reread':
      if (e.row === null || m.closed) return same(m);
      if (e.row.completedAt === null)
        return {
          machine: { ...m, state: 'busy' },
          decisions: [{ kind: 'run_turn', turn: e.row, fresh: !e.row.delivered, redeliver: false }],
        };
      return then(m.state === 'busy' ? moveTo(m, 'idle') : same(m), { kind: 'kick' });
    case 'awaiting_marked':
      return { machine: { ...m, awaiting: true }, decisions: [{ kind: 'arm_await_timer' }] };
    case 'awaiting_cleared':
      return { machine: { ...m, awaiting: false }, decisions: [{ kind: 'cancel_await_timer' }] };
    case 'awaiting_expired':
      return { machine: { ...m, awaiting: false }, decisions: m.closed ? [] : [{ kind: 'kick' }] };
    case 'message_queued':
      return { machine: { ...m, awaiting: false }, decisions: [{ kind: 'cancel_await_timer' }, { kind: 'kick' }] };
    case 'client_blocked':
      return m.closed || (m.state !== 'idle' && m.state !== 'busy') ? same(m) : hold(m, e.attention);
    case 'failed':
      return fail(m, e.failure, e.metadata, e.cause);
    case 'operator_resume':
      return resumeRefusal(m) !== null ? same(m) : moveTo(m, e.turnOpen ? 'busy' : 'idle');
    case 'stopping':
      return { machine: stopTimers({ ...m, closed: true }), decisions: [{ kind: 'abort_ready_wait' }, { kind: 'stop_timers' }] };
    case 'stopped':
      return moveTo(m, 'stopped');
    case 'abandoned':
      return { machine: stopTimers({ ...m, closed: true }), decisions: [{ kind: 'abort_ready_wait' }, { kind: 'stop_timers' }] };
  }
}

function dispatched(m: SessionMachine, turn: TurnRow | null, started: EventAlong<TurnRow>): Step {
  if (turn === null) return dispatchEnded(m, [], false);
  // The store set the session `busy` in the dispatch's transaction; here it is pushed, and the turn runs.
  const decisions: Decision[] = [
    { kind: 'push_status', state: 'busy', previous: 'idle' },
    { kind: 'announce', along: started },
    ...(turn.kind === 'message' ? [{ kind: 'cancel_await_timer' } as const] : []),
    { kind: 'run_turn', turn, fresh: true, startRecorded: true },
  ];
  const awaiting = turn.kind === 'message' ? false : m.awaiting;
  return dispatchEnded({ ...m, state: 'busy', awaiting }, decisions, false);
}

function turnEnded(m: SessionMachine, end: TurnEnd): Step {
  switch (end.kind) {
    case 'finished':
      return becomeIdle(m);
    case 'undelivered':
      return end.attention !== null && (m.state === 'busy' || m.state === 'idle') ? hold(m, end.attention) : becomeIdle(m);
    case 'rejected':
      return hold(m, { reason: end.reason, turn: end.turn }, 'rejected');
    case 'dropped':
      return same(m);
  }
}

/** `failed` is final until a restart: a second failure, or one after a stop, records nothing. */
function fail(m: SessionMachine, failure: AgentFailure, metadata: Record<string, unknown>, cause?: unknown): Step {
  if (isDone(m)) return same(m);
  const stopped = stopTimers(m);
  return {
    machine: { ...stopped, state: 'failed', attention: null, failure },
    decisions: [
      { kind: 'stop_timers' },
      { kind: 'persist_state', state: 'failed', previous: m.state, attention: null },
      { kind: 'record_failure', failure, metadata, ...(cause === undefined ? {} : { cause }) },
    ],
  };
}
