// The session machine, part 1: start, dispatch, awaiting, client holds, stop (state × event → next state + decisions).
import type { EventAlong, TurnRow } from '../store/store';
import { INITIAL_MACHINE, step, taskRefusal } from './session-machine';
import { BLOCKED, expectTransition, FAILURE, machine, turn, type TransitionRow } from './test-support/machine-fixtures';

const STARTED: EventAlong<TurnRow> = { stored: null, make: () => null };

// state × event → next state + decisions (in the order the session carries them out)
const TRANSITIONS: readonly TransitionRow[] = [
  {
    name: 'a start goes idle and schedules',
    from: {},
    event: { type: 'ready', keep: null, stuck: null },
    state: 'idle',
    decisions: ['persist_state', 'announce_ready', 'start_outbox_poll', 'kick'],
  },
  {
    name: 'a start keeps a persisted hold',
    from: {},
    event: { type: 'ready', keep: BLOCKED, stuck: null },
    state: 'needs_attention',
    decisions: ['persist_state', 'announce_ready', 'start_outbox_poll', 'kick'],
  },
  {
    name: 'a client stuck before its prompt is held',
    from: {},
    event: { type: 'ready', keep: null, stuck: BLOCKED },
    state: 'needs_attention',
    decisions: ['persist_state', 'announce_attention', 'announce_ready', 'start_outbox_poll', 'kick'],
  },
  {
    name: 'a client that exited during its start stays failed',
    from: { state: 'failed', failure: FAILURE },
    event: { type: 'ready', keep: null, stuck: null },
    state: 'failed',
    decisions: [],
  },
  {
    name: 'a start stopped meanwhile stays stopped',
    from: { state: 'stopped', closed: true },
    event: { type: 'ready', keep: null, stuck: null },
    state: 'stopped',
    decisions: [],
  },
  {
    name: 'a closed session does not become ready',
    from: { closed: true },
    event: { type: 'ready', keep: null, stuck: null },
    state: 'starting',
    decisions: [],
  },
  {
    name: 'a kick of an idle agent dispatches',
    from: { state: 'idle' },
    event: { type: 'kick' },
    state: 'idle',
    decisions: ['dispatch'],
    also: { dispatching: true },
  },
  {
    name: 'a kick during a dispatch is remembered, not run twice',
    from: { state: 'idle', dispatching: true },
    event: { type: 'kick' },
    state: 'idle',
    decisions: [],
    also: { kickAgain: true },
  },
  ...(['starting', 'busy', 'needs_attention', 'failed', 'stopped'] as const).map((state) => ({
    name: `a kick of a ${state} agent dispatches nothing`,
    from: { state },
    event: { type: 'kick' } as const,
    state,
    decisions: [],
  })),
  {
    name: 'a kick of a closed agent dispatches nothing',
    from: { state: 'idle', closed: true },
    event: { type: 'kick' },
    state: 'idle',
    decisions: [],
  },
  {
    name: 'a dispatched task runs',
    from: { state: 'idle', dispatching: true },
    event: { type: 'dispatched', turn: turn(), started: STARTED },
    state: 'busy',
    decisions: ['push_status', 'announce', 'run_turn'],
    also: { dispatching: false },
  },
  {
    name: 'a dispatched message ends awaiting',
    from: { state: 'idle', dispatching: true, awaiting: true },
    event: { type: 'dispatched', turn: turn({ kind: 'message' }), started: STARTED },
    state: 'busy',
    decisions: ['push_status', 'announce', 'cancel_await_timer', 'run_turn'],
    also: { awaiting: false },
  },
  {
    name: 'an empty queue with a kick pending looks again',
    from: { state: 'idle', dispatching: true, kickAgain: true },
    event: { type: 'dispatched', turn: null, started: STARTED },
    state: 'idle',
    decisions: ['kick'],
    also: { dispatching: false, kickAgain: false },
  },
  {
    name: 'a first dispatch failure is reported and retried',
    from: { state: 'idle', dispatching: true },
    event: { type: 'dispatch_failed', error: new Error('x') },
    state: 'idle',
    decisions: ['report', 'arm_dispatch_retry'],
    also: { dispatchFailing: true, dispatchRetryArmed: true },
  },
  {
    name: 'a failure streak is reported once',
    from: { state: 'idle', dispatching: true, dispatchFailing: true, dispatchRetryArmed: true },
    event: { type: 'dispatch_failed', error: new Error('x') },
    state: 'idle',
    decisions: [],
  },
  {
    name: 'a closed session arms no retry',
    from: { state: 'idle', dispatching: true, closed: true },
    event: { type: 'dispatch_failed', error: new Error('x') },
    state: 'idle',
    decisions: ['report'],
  },
  {
    name: 'a retry timer kicks',
    from: { state: 'idle', dispatchRetryArmed: true },
    event: { type: 'dispatch_retry_fired' },
    state: 'idle',
    decisions: ['kick'],
    also: { dispatchRetryArmed: false },
  },
  {
    name: 'awaiting arms its timer',
    from: { state: 'busy' },
    event: { type: 'awaiting_marked' },
    state: 'busy',
    decisions: ['arm_await_timer'],
    also: { awaiting: true },
  },
  {
    name: 'the awaiting timer ends awaiting and kicks',
    from: { state: 'idle', awaiting: true },
    event: { type: 'awaiting_expired' },
    state: 'idle',
    decisions: ['kick'],
    also: { awaiting: false },
  },
  {
    name: 'a closed session ignores the awaiting timer',
    from: { state: 'idle', awaiting: true, closed: true },
    event: { type: 'awaiting_expired' },
    state: 'idle',
    decisions: [],
    also: { awaiting: false },
  },
  {
    name: 'a queued message ends awaiting and kicks',
    from: { state: 'idle', awaiting: true },
    event: { type: 'message_queued' },
    state: 'idle',
    decisions: ['cancel_await_timer', 'kick'],
    also: { awaiting: false },
  },
  {
    name: 'a dialog between turns holds the agent',
    from: { state: 'idle' },
    event: { type: 'client_blocked', attention: BLOCKED },
    state: 'needs_attention',
    decisions: ['persist_state', 'announce_attention'],
  },
  {
    name: 'a dialog during a start is left to the ready wait',
    from: { state: 'starting' },
    event: { type: 'client_blocked', attention: BLOCKED },
    state: 'starting',
    decisions: [],
  },
  {
    name: 'a dialog after a stop is ignored',
    from: { state: 'idle', closed: true },
    event: { type: 'client_blocked', attention: BLOCKED },
    state: 'idle',
    decisions: [],
  },
  {
    name: 'a stop closes the session and its timers',
    from: { state: 'busy', awaiting: true, storageRetryArmed: true },
    event: { type: 'stopping' },
    state: 'busy',
    decisions: ['abort_ready_wait', 'stop_timers'],
    also: { closed: true, awaiting: false, storageRetryArmed: false },
  },
  {
    name: 'a stopped session is stored stopped',
    from: { state: 'busy', closed: true },
    event: { type: 'stopped' },
    state: 'stopped',
    decisions: ['persist_state'],
  },
  {
    name: 'a crash drops the session',
    from: { state: 'busy' },
    event: { type: 'abandoned' },
    state: 'busy',
    decisions: ['abort_ready_wait', 'stop_timers'],
    also: { closed: true },
  },
  {
    name: 'a restart of a failed agent starts again (its failure shown until then)',
    from: { state: 'failed', failure: FAILURE, closed: true, attention: BLOCKED },
    event: { type: 'launching' },
    state: 'starting',
    decisions: [],
    also: { closed: false, attention: null, failure: FAILURE },
  },
  {
    name: 'recovery resumes the open turn',
    from: {},
    event: { type: 'resume_busy', turn: turn({ delivered: true }), redeliver: true },
    state: 'busy',
    decisions: ['persist_state', 'announce_resumed_turn', 'start_outbox_poll', 'run_turn'],
  },
];

describe('session machine: start, dispatch, awaiting, stop', () => {
  test.each(TRANSITIONS)('$name', (row) => expectTransition(row));

  test('a dispatch asks for messages only while the agent awaits a reply', () => {
    expect(step(machine({ state: 'idle', awaiting: true }), { type: 'kick' }).decisions).toEqual([
      { kind: 'dispatch', messagesOnly: true },
    ]);
    expect(step(machine({ state: 'idle' }), { type: 'kick' }).decisions).toEqual([{ kind: 'dispatch', messagesOnly: false }]);
  });

  test('a dispatched turn runs fresh, its start already recorded with the dispatch', () => {
    const t = turn();
    const run = step(machine({ state: 'idle', dispatching: true }), { type: 'dispatched', turn: t, started: STARTED }).decisions.at(-1);
    expect(run).toEqual({ kind: 'run_turn', turn: t, fresh: true, startRecorded: true });
  });

  test.each([
    ['starting', { code: 'agent_not_ready', state: 'starting' }],
    ['idle', null],
    ['busy', null],
    ['needs_attention', { code: 'needs_attention' }],
    ['failed', { code: 'agent_not_ready', state: 'failed' }],
    ['stopped', { code: 'agent_not_ready', state: 'stopped' }],
  ] as const)('a task for a %s agent: %j', (state, refusal) => {
    expect(taskRefusal(machine({ state }))).toEqual(refusal);
  });

  test('the initial machine is frozen and starting', () => {
    expect(Object.isFrozen(INITIAL_MACHINE)).toBe(true);
    expect(INITIAL_MACHINE.state).toBe('starting');
  });
});
