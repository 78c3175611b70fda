// The session machine, part 2: how a turn ends, failures, operator resume (state × event → next state + decisions).
import type { SessionState } from '../store/store';
import { resumeRefusal, step, type SessionEvent } from './session-machine';
import { BLOCKED, expectTransition, FAILURE, machine, turn, type TransitionRow } from './test-support/machine-fixtures';

const STATES: readonly SessionState[] = ['starting', 'idle', 'busy', 'needs_attention', 'failed', 'stopped'];

// state × event → next state + decisions (in the order the session carries them out)
const TRANSITIONS: readonly TransitionRow[] = [
  {
    name: 'a finished turn frees the agent',
    from: { state: 'busy' },
    event: { type: 'turn_ended', end: { kind: 'finished' } },
    state: 'idle',
    decisions: ['persist_state', 'kick'],
  },
  {
    name: 'a finished turn leaves a failed agent failed',
    from: { state: 'failed', failure: FAILURE },
    event: { type: 'turn_ended', end: { kind: 'finished' } },
    state: 'failed',
    decisions: [],
  },
  {
    name: 'a finished turn leaves a stopped agent stopped',
    from: { state: 'stopped' },
    event: { type: 'turn_ended', end: { kind: 'finished' } },
    state: 'stopped',
    decisions: [],
  },
  {
    name: 'a paste the client refused holds the agent',
    from: { state: 'busy' },
    event: { type: 'turn_ended', end: { kind: 'undelivered', attention: BLOCKED } },
    state: 'needs_attention',
    decisions: ['persist_state', 'announce_attention'],
  },
  {
    name: 'a refused paste does not revive a failed agent',
    from: { state: 'failed', failure: FAILURE },
    event: { type: 'turn_ended', end: { kind: 'undelivered', attention: BLOCKED } },
    state: 'failed',
    decisions: [],
  },
  {
    name: 'a delivery failure without attention frees the agent',
    from: { state: 'busy' },
    event: { type: 'turn_ended', end: { kind: 'undelivered', attention: null } },
    state: 'idle',
    decisions: ['persist_state', 'kick'],
  },
  {
    name: 'a rejected receipt holds the agent',
    from: { state: 'busy' },
    event: { type: 'turn_ended', end: { kind: 'rejected', reason: 'receipt_symlink', turn: 't' } },
    state: 'needs_attention',
    decisions: ['persist_state', 'announce_attention'],
    also: { attention: { reason: 'receipt_symlink', turn: 't' } },
  },
  {
    name: 'a dropped turn changes nothing',
    from: { state: 'busy' },
    event: { type: 'turn_ended', end: { kind: 'dropped' } },
    state: 'busy',
    decisions: [],
  },
  {
    name: 'a full disk retries the turn later',
    from: { state: 'busy' },
    event: { type: 'turn_threw', turn: turn(), error: new Error('ENOSPC'), storageFull: true },
    state: 'busy',
    decisions: ['arm_storage_retry'],
    also: { storageRetryArmed: true },
  },
  {
    name: 'a full disk arms one retry at a time',
    from: { state: 'busy', storageRetryArmed: true },
    event: { type: 'turn_threw', turn: turn(), error: new Error('ENOSPC'), storageFull: true },
    state: 'busy',
    decisions: [],
  },
  {
    name: 'a turn that threw is reported first',
    from: { state: 'busy' },
    event: { type: 'turn_threw', turn: turn(), error: new Error('db'), storageFull: false },
    state: 'busy',
    decisions: ['report_turn'],
  },
  {
    name: 'a reported turn is settled',
    from: { state: 'busy' },
    event: { type: 'turn_reported', turn: turn() },
    state: 'busy',
    decisions: ['settle_turn'],
  },
  {
    name: 'a stopping session settles its turn itself',
    from: { state: 'busy', closed: true },
    event: { type: 'turn_reported', turn: turn() },
    state: 'busy',
    decisions: [],
  },
  {
    name: 'a settled turn frees a busy agent',
    from: { state: 'busy' },
    event: { type: 'turn_settled', turn: turn() },
    state: 'idle',
    decisions: ['persist_state', 'kick'],
  },
  {
    name: 'a settled turn keeps a held agent held',
    from: { state: 'needs_attention', attention: BLOCKED },
    event: { type: 'turn_settled', turn: turn() },
    state: 'needs_attention',
    decisions: ['persist_state'],
    also: { attention: BLOCKED },
  },
  {
    name: 'a settled turn leaves a failed agent failed',
    from: { state: 'failed', failure: FAILURE },
    event: { type: 'turn_settled', turn: turn() },
    state: 'failed',
    decisions: [],
  },
  {
    name: 'a turn that cannot be settled fails the agent',
    from: { state: 'busy' },
    event: { type: 'turn_settle_failed', turn: turn(), error: new Error('db') },
    state: 'failed',
    decisions: ['report', 'stop_timers', 'persist_state', 'record_failure'],
  },
  {
    name: 'a full-disk retry re-reads the turn',
    from: { state: 'busy', storageRetryArmed: true },
    event: { type: 'storage_retry_fired', turn: turn() },
    state: 'busy',
    decisions: ['reread_turn'],
    also: { storageRetryArmed: false },
  },
  {
    name: 'a closed session re-reads nothing',
    from: { state: 'busy', closed: true, storageRetryArmed: true },
    event: { type: 'storage_retry_fired', turn: turn() },
    state: 'busy',
    decisions: [],
  },
  {
    name: 'a re-read open turn is watched again',
    from: { state: 'busy' },
    event: { type: 'turn_reread', row: turn({ delivered: true }) },
    state: 'busy',
    decisions: ['run_turn'],
  },
  {
    name: 'a re-read finished turn frees the agent',
    from: { state: 'busy' },
    event: { type: 'turn_reread', row: turn({ completedAt: '2026-01-01T00:00:01.000Z' }) },
    state: 'idle',
    decisions: ['persist_state', 'kick'],
  },
  {
    name: 'a re-read vanished turn changes nothing',
    from: { state: 'busy' },
    event: { type: 'turn_reread', row: null },
    state: 'busy',
    decisions: [],
  },
  {
    name: 'an exit fails a busy agent and stops its timers',
    from: { state: 'busy', awaiting: true, dispatchRetryArmed: true },
    event: { type: 'failed', failure: FAILURE, metadata: {} },
    state: 'failed',
    decisions: ['stop_timers', 'persist_state', 'record_failure'],
    also: { failure: FAILURE, awaiting: false, dispatchRetryArmed: false },
  },
  {
    name: 'a second failure records nothing',
    from: { state: 'failed', failure: FAILURE },
    event: { type: 'failed', failure: { ...FAILURE, code: 'oom_killed' }, metadata: {} },
    state: 'failed',
    decisions: [],
    also: { failure: FAILURE },
  },
  {
    name: 'a failure after a stop records nothing',
    from: { state: 'stopped' },
    event: { type: 'failed', failure: FAILURE, metadata: {} },
    state: 'stopped',
    decisions: [],
  },
  {
    name: 'the operator resumes a held agent',
    from: { state: 'needs_attention', attention: BLOCKED },
    event: { type: 'operator_resume', turnOpen: false },
    state: 'idle',
    decisions: ['persist_state'],
    also: { attention: null },
  },
  {
    name: 'the operator resumes a held agent into its open turn',
    from: { state: 'needs_attention', attention: BLOCKED },
    event: { type: 'operator_resume', turnOpen: true },
    state: 'busy',
    decisions: ['persist_state'],
  },
  ...(['starting', 'idle', 'busy', 'failed', 'stopped'] as const).map((state) => ({
    name: `the operator cannot resume a ${state} agent`,
    from: { state },
    event: { type: 'operator_resume', turnOpen: false } as const,
    state,
    decisions: [],
  })),
];

describe('session machine: turn ends, failures, operator', () => {
  test.each(TRANSITIONS)('$name', (row) => expectTransition(row));

  test('every persisted change names the state it leaves', () => {
    const next = step(machine({ state: 'busy' }), { type: 'turn_ended', end: { kind: 'finished' } });
    expect(next.decisions[0]).toEqual({ kind: 'persist_state', state: 'idle', previous: 'busy', attention: null });
  });

  // failed is left only by a new start, a stop, or (as before the split) a receipt rejected after the exit
  test('no event but launching, stopped or a rejected receipt leaves failed', () => {
    const events: SessionEvent[] = [
      { type: 'ready', keep: null, stuck: null },
      { type: 'ready', keep: BLOCKED, stuck: null },
      { type: 'kick' },
      { type: 'dispatch_retry_fired' },
      { type: 'turn_ended', end: { kind: 'finished' } },
      { type: 'turn_ended', end: { kind: 'undelivered', attention: BLOCKED } },
      { type: 'turn_ended', end: { kind: 'dropped' } },
      { type: 'turn_settled', turn: turn() },
      { type: 'turn_reread', row: turn({ completedAt: 'x' }) },
      { type: 'client_blocked', attention: BLOCKED },
      { type: 'operator_resume', turnOpen: false },
      { type: 'failed', failure: FAILURE, metadata: {} },
      { type: 'awaiting_expired' },
      { type: 'message_queued' },
    ];
    for (const event of events) expect(step(machine({ state: 'failed', failure: FAILURE }), event).machine.state).toBe('failed');
  });

  test.each(STATES)('operator resume of a %s agent is legal only from needs_attention', (state) => {
    expect(resumeRefusal(machine({ state }))).toEqual(state === 'needs_attention' ? null : { code: 'invalid_state', state });
  });
});
