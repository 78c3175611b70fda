/**
 * The event loop of one agent session: it feeds the pure state machine (session-machine.ts) its events — a kick,
 * a dispatch's result, a turn's end, a timer, an operator action — and executes the decisions it returns, in
 * order, through the effects port (agent-effects.ts). The runner-handle lifecycle (start, re-attach, stop) is the
 * session's (agent-session.ts), which extends this.
 */
import type { AgentLaunchSpec } from '@genswarms/runners';
import type { FailureSite } from '../events/failure-report';
import type { AttentionInfo, SessionState, TurnRow } from '../store/store';
import { isStorageFullError } from '../store/storage-full';
import { AgentEffects } from './agent-effects';
import type { AgentFailure } from './agent-failure';
import { ClientReadyWait } from './client-attention';
import type { SessionHost } from './session-host';
import {
  INITIAL_MACHINE,
  resumeRefusal,
  step,
  taskRefusal,
  type Decision,
  type SessionEvent,
  type SessionMachine,
  type TaskRefusal,
} from './session-machine';
import { SessionTimers } from './session-timers';
import { bumpStateEpoch } from './state-epoch';
import { TurnRunner } from './turn-runner';

export abstract class SessionLoop {
  private machine: SessionMachine = INITIAL_MACHINE;
  /** The effects port: what this session and its turns do to the world. */
  protected readonly effects: AgentEffects;
  readonly turns: TurnRunner;
  private readonly timers: SessionTimers;
  /** becomeReady's wait for a TUI client's ready screen; a stop aborts it. */
  protected readonly readyWait = new ClientReadyWait();
  protected lastActivityNow: string | null = null;
  /** Highest seq already used in the workspace when this session launched (see inbox-floor.ts). */
  protected seqFloor = 0;
  /** An outbox-poll failure is reported once per streak of failures, not on every retry. */
  private outboxFailing = false;

  constructor(
    protected readonly host: SessionHost,
    readonly name: string,
    spec: AgentLaunchSpec,
  ) {
    bumpStateEpoch();
    this.effects = new AgentEffects(host, name, spec);
    this.turns = new TurnRunner(this.effects);
    this.timers = new SessionTimers(host.clock);
  }

  get state(): SessionState {
    return this.machine.state;
  }
  get attention(): AttentionInfo | null {
    return this.machine.attention;
  }
  /** Why the agent is `failed` (code, sentence, details); null in every other state. */
  get failure(): AgentFailure | null {
    return this.machine.failure;
  }
  get awaiting(): boolean {
    return this.machine.awaiting;
  }
  get lastActivity(): string | null {
    return this.lastActivityNow;
  }
  /** Stopped, released or abandoned. */
  protected get closed(): boolean {
    return this.machine.closed;
  }

  /** Why a task would be refused now; null = it may be queued. */
  taskRefusal(): TaskRefusal {
    return taskRefusal(this.machine);
  }

  /** Steps the machine and executes its decisions in order (a synchronous decision runs without a tick). */
  protected async feed(event: SessionEvent): Promise<void> {
    const before = this.machine.state;
    const { machine, decisions } = step(this.machine, event);
    this.machine = machine;
    if (machine.state !== before) bumpStateEpoch(); // cached state summaries see it (state-epoch.ts)
    for (const d of decisions) {
      const pending = this.execute(d);
      if (pending !== undefined) await pending;
    }
  }

  /** Feeds an event from a callback (a timer, a handle's listener): a failure is reported, never thrown. */
  protected fire(event: SessionEvent, where: FailureSite): void {
    void this.feed(event).catch((e: unknown) => this.report(where, e));
  }

  private execute(d: Decision): Promise<unknown> | undefined {
    const fx = this.effects;
    switch (d.kind) {
      case 'persist_state':
        return this.persistState(d.state, d.previous, d.attention);
      case 'push_status':
        fx.push({ type: 'agent_status', payload: { agent: this.name, state: d.state, previous: d.previous } });
        return undefined;
      case 'announce_attention':
        return fx.announceAttention(d.attention, d.wording);
      case 'announce_ready':
        return fx.announceReady(null);
      case 'announce_resumed_turn':
        return fx.announceReady(d.turn);
      case 'announce':
        fx.events.announce(d.along);
        return undefined;
      case 'record_failure':
        return fx.recordFailure(d.failure, d.metadata, d.cause);
      case 'report':
        return this.report(d.where, d.error, d.metadata);
      case 'report_turn':
        return this.report('turn', d.error, { turn: d.turn.id }).then(() => this.feed({ type: 'turn_reported', turn: d.turn }));
      case 'dispatch':
        return this.dispatch(d.messagesOnly);
      case 'run_turn':
        this.runTurn(d);
        return undefined;
      case 'settle_turn':
        return this.settleThrownTurn(d.turn);
      case 'reread_turn':
        return this.rereadTurn(d.turn);
      case 'arm_dispatch_retry':
        this.timers.armDispatchRetry(this.host.outboxPollMs, () => this.fire({ type: 'dispatch_retry_fired' }, 'dispatch'));
        return undefined;
      case 'arm_storage_retry':
        this.timers.armStorageRetry(this.host.outboxPollMs, () => this.fire({ type: 'storage_retry_fired', turn: d.turn }, 'turn'));
        return undefined;
      case 'arm_await_timer':
        this.timers.armAwait(this.host.awaitingMs, () => this.fire({ type: 'awaiting_expired' }, 'dispatch'));
        return undefined;
      case 'cancel_await_timer':
        this.timers.cancelAwait();
        return undefined;
      case 'stop_timers':
        this.timers.cancelAll();
        return undefined;
      case 'start_outbox_poll':
        this.timers.startOutboxPoll(fx.workspace, this.host.outboxPollMs, () => this.pollOutbox());
        return undefined;
      case 'abort_ready_wait':
        this.readyWait.abort();
        return undefined;
      case 'kick':
        this.kick();
        return undefined;
    }
  }

  /** Persists and pushes a state change (`agent_status`). */
  private async persistState(state: SessionState, previous: SessionState, attention: AttentionInfo | null): Promise<void> {
    this.lastActivityNow = this.effects.now();
    await this.effects.persistState(state, attention, this.lastActivityNow);
    if (previous !== state) this.effects.push({ type: 'agent_status', payload: { agent: this.name, state, previous } });
  }

  /** One exactly-once dispatch; a store failure leaves the agent idle and is retried a poll period later. */
  private async dispatch(messagesOnly: boolean): Promise<void> {
    let next: Awaited<ReturnType<AgentEffects['dispatchNext']>>;
    try {
      next = await this.effects.dispatchNext(messagesOnly, this.seqFloor);
    } catch (e) {
      await this.feed({ type: 'dispatch_failed', error: e });
      return;
    }
    await this.feed({ type: 'dispatched', turn: next.turn, started: next.started });
  }

  /** A turn's end goes back to the machine; a turn that threw inside the engine (or whose end did) is settled by it. */
  private runTurn(d: Extract<Decision, { kind: 'run_turn' }>): void {
    const opts = {
      fresh: d.fresh,
      ...(d.redeliver === undefined ? {} : { redeliver: d.redeliver }),
      ...(d.startRecorded === true ? { startRecorded: true } : {}),
    };
    void this.turns
      .run(d.turn, opts)
      .then((end) => this.feed({ type: 'turn_ended', end }))
      .catch((e: unknown) => this.feed({ type: 'turn_threw', turn: d.turn, error: e, storageFull: isStorageFullError(e) }))
      .catch((e: unknown) => this.report('turn', e, { turn: d.turn.id }));
  }

  /**
   * A turn threw inside the engine (a store or event write failed): it ends as `error` (`engine_error`), then the
   * machine decides (a busy agent goes idle and takes the next item; needs_attention and failed stay). If even
   * that fails, the agent is `failed` — never left `busy`.
   */
  private async settleThrownTurn(turn: TurnRow): Promise<void> {
    try {
      await this.turns.failInternally(turn);
      await this.feed({ type: 'turn_settled', turn });
    } catch (e) {
      await this.feed({ type: 'turn_settle_failed', turn, error: e }).catch((e2: unknown) =>
        this.report('turn_settle', e2, { turn: turn.id }),
      );
    }
  }

  /**
   * The disk was full while this turn was being stored (storage_full): re-read a poll period later. Still open →
   * watched again (its receipt is still on disk); already finished → the agent takes the next item. The outage
   * itself is reported once by the store guard (storage_full / storage_recovered events).
   */
  private async rereadTurn(turn: TurnRow): Promise<void> {
    try {
      const row = await this.host.store.getTurn(turn.id);
      await this.feed({ type: 'turn_reread', row: row === null ? null : this.turns.withDelivery(row) });
    } catch (e) {
      await this.feed({ type: 'turn_threw', turn, error: e, storageFull: isStorageFullError(e) });
    }
  }

  /** One drain of the outbox for the poll (routing/outbox-schedule.ts); a failure is reported once per streak. */
  private pollOutbox(): Promise<void> {
    if (this.machine.closed) return Promise.resolve();
    return this.effects.drainOutbox(this.turns.currentId()).then(
      () => {
        this.outboxFailing = false;
      },
      async (e: unknown) => {
        if (!this.outboxFailing) await this.report('outbox_poll', e);
        this.outboxFailing = true;
      },
    );
  }

  /** Schedules work; at most one dispatch runs per agent (the machine's `dispatching`). */
  kick(): void {
    this.fire({ type: 'kick' }, 'dispatch');
  }

  markAwaiting(): void {
    this.fire({ type: 'awaiting_marked' }, 'dispatch');
  }

  /** A message was queued for this agent: its awaiting ends and the scheduler runs. */
  messageQueued(): void {
    this.fire({ type: 'message_queued' }, 'dispatch');
  }

  /** Operator resume of a held agent: a turn still open goes on (`busy`), else `idle`. Refused in any other state. */
  async resume(): Promise<{ kind: 'resumed'; state: 'idle' | 'busy' } | { kind: 'refused'; state: SessionState }> {
    if (resumeRefusal(this.machine) !== null) return { kind: 'refused', state: this.state };
    const turnOpen = this.turns.currentId() !== null;
    await this.feed({ type: 'operator_resume', turnOpen });
    return { kind: 'resumed', state: turnOpen ? 'busy' : 'idle' };
  }

  /**
   * The agent is `failed`: the failure (code, sentence, details) is kept for the status, logged once and
   * recorded as `agent_failed` (`reason` = the code). `cause` (the thrown error) reaches only the log.
   */
  fail(failure: AgentFailure, metadata: Record<string, unknown> = {}, cause?: unknown): Promise<void> {
    return this.feed({ type: 'failed', failure, metadata, ...(cause === undefined ? {} : { cause }) });
  }

  /** Reports an internal failure of this agent's loops (log line + `engine_error`); never throws. */
  report(where: FailureSite, error: unknown, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.effects.report(where, error, metadata);
  }
}
