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
import type { AttentionWording, Decision, SessionEvent, SessionMachine, Step, TurnEnd } from './session-machine-types';

export type { AttentionWording, Decision, SessionEvent, SessionMachine, Step, TurnEnd } from './session-machine-types';

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
