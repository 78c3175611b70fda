/** Fixtures of the session machine's table specs (session-machine-*.spec.ts). */
import type { AttentionInfo, SessionState, TurnRow } from '../../store/store';
import { INITIAL_MACHINE, step, type Decision, type SessionEvent, type SessionMachine } from '../session-machine';

/** A machine in the initial state with `over` applied, frozen (a step must never mutate its input). */
export function machine(over: Partial<SessionMachine> = {}): SessionMachine {
  return Object.freeze({ ...INITIAL_MACHINE, ...over });
}

/** A running task turn. */
export function turn(over: Partial<TurnRow> = {}): TurnRow {
  return {
    id: 'turn_0123456789abcdef0123456789abcdef',
    swarm: 's',
    agent: 'a',
    itemId: 'item_1',
    kind: 'task',
    from: '_operator',
    content: 'do it',
    seq: 1,
    status: 'running',
    reason: null,
    error: null,
    replyPreview: null,
    startedAt: '2026-01-01T00:00:00.000Z',
    completedAt: null,
    delivered: false,
    timedOut: false,
    receivedAt: null,
    ...over,
  } as TurnRow;
}

export const BLOCKED: AttentionInfo = { reason: 'client_prompt_blocked', turn: null, details: { dialog: 'trust' } };

/** The kinds of a step's decisions, in order. */
export const kinds = (ds: readonly Decision[]): string[] => ds.map((d) => d.kind);

export const FAILURE = { code: 'process_exited', message: 'exit 1', details: {} };

/** One row of a transition table: from a machine, an event → the next state and the kinds of the decisions. */
export interface TransitionRow {
  readonly name: string;
  readonly from: Partial<SessionMachine>;
  readonly event: SessionEvent;
  readonly state: SessionState;
  readonly decisions: readonly string[];
  readonly also?: Partial<SessionMachine>;
}

/** Checks one row, and that the step left its input machine as it was (the machine is pure). */
export function expectTransition({ from, event, state, decisions, also }: TransitionRow): void {
  const before = machine(from);
  const next = step(before, event);
  expect(next.machine.state).toBe(state);
  expect(kinds(next.decisions)).toEqual(decisions);
  if (also !== undefined) expect(next.machine).toMatchObject(also);
  expect(before).toEqual(machine(from));
}
