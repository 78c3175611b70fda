/**
 * One agent: the thin shell around its state machine (session-machine.ts). It feeds the machine events (a kick,
 * a dispatch's result, a turn's end, a timer, the client's exit, an operator action), executes the decisions it
 * returns through the effects port (agent-effects.ts), and owns the runner handle's lifecycle (start, re-attach,
 * isolation check, stop). Turns are run by the `TurnRunner`, which reports how each ended and never calls back.
 */
import { newTurnId } from '@genswarms/receipts';
import type { AgentLaunchSpec, IsolationReport, LaunchPlan, RunnerHandle, SessionDescription } from '@genswarms/runners';
import type { FailureSite } from '../events/failure-report';
import type { AttentionInfo, SessionState, TurnRow } from '../store/store';
import { isStorageFullError } from '../store/storage-full';
import { AgentEffects } from './agent-effects';
import { exitFailureOf, lastScreenLines, startFailureOf, type AgentFailure } from './agent-failure';
import { attentionEvent, blocked, ClientReadyWait } from './client-attention';
import {
  egressFactsOf,
  emitEgressFailed,
  emitEgressStarted,
  emitEgressStopped,
  type EgressFacts,
  type EgressStopReason,
} from './egress-events';
import { TURN_CANCELLED_ERROR } from './host-receipt';
import { inboxSeqFloor } from './inbox-floor';
import { OutputLog, type LogLine } from './output-log';
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

export type { LogLine } from './output-log';

/** After a client's exit, how long its open turn's watcher may still find a receipt written just before it (ms). */
const EXIT_RECEIPT_GRACE_MS = 1000;

export class AgentSession {
  private machine: SessionMachine = INITIAL_MACHINE;
  /** The effects port: what this session and its turns do to the world. */
  private readonly effects: AgentEffects;
  readonly turns: TurnRunner;
  private readonly timers: SessionTimers;
  private readonly output = new OutputLog();
  private isolationNow: IsolationReport | null = null;
  private startedAtNow: string | null = null;
  private lastActivityNow: string | null = null;
  /** Highest seq already used in the workspace when this session launched (see inbox-floor.ts). */
  private seqFloor = 0;
  /** An outbox-poll failure is reported once per streak of failures, not on every retry. */
  private outboxFailing = false;
  private unsubs: (() => void)[] = [];
  /** The isolated agent's forwarder while it runs (recorded by egress_started, ended by egress_stopped). */
  private egress: EgressFacts | null = null;
  /** becomeReady's wait for a TUI client's ready screen; a stop aborts it. */
  private readonly readyWait = new ClientReadyWait();

  constructor(
    private readonly host: SessionHost,
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
  /** The isolation read from the live process at the last start or re-attach (null: not checked). */
  get isolation(): IsolationReport | null {
    return this.isolationNow;
  }
  get startedAt(): string | null {
    return this.startedAtNow;
  }
  get lastActivity(): string | null {
    return this.lastActivityNow;
  }
  get handle(): RunnerHandle | null {
    return this.effects.handle;
  }
  get spec(): AgentLaunchSpec {
    return this.effects.spec;
  }
  get workspace(): string {
    return this.effects.workspace;
  }
  get isTui(): boolean {
    return this.effects.isTui();
  }
  get logs(): readonly LogLine[] {
    return this.output.lines;
  }
  /**
   * The shared resource this agent's stop queues on, so a swarm stop can take turns between them: the tmux server
   * holding its window (SessionDescription.tmuxServer); undefined for every other backend (or no process).
   */
  get stopLane(): number | undefined {
    return this.handle?.describe().tmuxServer;
  }

  /** Why a task would be refused now; null = it may be queued. */
  taskRefusal(): TaskRefusal {
    return taskRefusal(this.machine);
  }

  // ---- the machine ----

  /** Steps the machine and executes its decisions in order (a synchronous decision runs without a tick). */
  private async feed(event: SessionEvent): Promise<void> {
    const before = this.machine.state;
    const { machine, decisions } = step(this.machine, event);
    this.machine = machine;
    if (machine.state !== before) bumpStateEpoch(); // cached state summaries see it (state-epoch.ts)
    for (const d of decisions) {
      const pending = this.execute(d);
      if (pending !== undefined) await pending;
    }
  }

  private execute(d: Decision): Promise<unknown> | undefined {
    switch (d.kind) {
      case 'persist_state':
        return this.persistState(d.state, d.previous, d.attention);
      case 'push_status':
        this.effects.push({ type: 'agent_status', payload: { agent: this.name, state: d.state, previous: d.previous } });
        return undefined;
      case 'announce_attention': {
        const { message, metadata } = attentionEvent(this.name, d.attention, d.wording);
        const push = {
          type: 'needs_attention',
          payload: { agent: this.name, turn: d.attention.turn, reason: d.attention.reason },
        } as const;
        return this.effects.emitOwn({ type: 'agent_needs_attention', message, metadata }).then(() => this.effects.push(push));
      }
      case 'announce_ready':
        return this.effects.emitOwn({ type: 'agent_ready', message: `Agent ${this.name} is ready.` });
      case 'announce_resumed_turn': {
        const message = `Agent ${this.name} re-attached; resuming turn ${d.turn.id}.`;
        return this.effects.emitOwn({ type: 'agent_ready', message, metadata: { turn: d.turn.id } });
      }
      case 'announce':
        this.host.events.announce(d.along);
        return undefined;
      case 'record_failure':
        return this.recordFailure(d.failure, d.metadata, d.cause);
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
        this.timers.startOutboxPoll(this.workspace, this.host.outboxPollMs, () => this.pollOutbox());
        return undefined;
      case 'abort_ready_wait':
        this.readyWait.abort();
        return undefined;
      case 'kick':
        this.kick();
        return undefined;
    }
  }

  /** Feeds an event from a callback (a timer, a handle's listener): a failure is reported, never thrown. */
  private fire(event: SessionEvent, where: FailureSite): void {
    void this.feed(event).catch((e: unknown) => this.report(where, e));
  }

  /** Persists and pushes a state change (`agent_status`). */
  private async persistState(state: SessionState, previous: SessionState, attention: AttentionInfo | null): Promise<void> {
    this.lastActivityNow = this.effects.now();
    await this.effects.persistState(state, attention, this.lastActivityNow);
    if (previous !== state) this.effects.push({ type: 'agent_status', payload: { agent: this.name, state, previous } });
  }

  /** One exactly-once dispatch (`store.dispatchNext`); `turn_started` is written in its transaction. */
  private async dispatch(messagesOnly: boolean): Promise<void> {
    const started = this.host.events.along((t: TurnRow) => ({
      type: 'turn_started',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Turn ${t.id} started.`,
      metadata: { turn: t.id, item_id: t.itemId, from: t.from },
    }));
    let turn: TurnRow | null;
    try {
      const now = this.effects.now();
      const req = { swarm: this.host.swarm, agent: this.name, turnId: newTurnId(), now, messagesOnly, seqFloor: this.seqFloor };
      turn = await this.host.store.dispatchNext(req, started);
    } catch (e) {
      // The queue could not be read (a store failure): the agent stays idle and dispatch is retried a poll period later.
      await this.feed({ type: 'dispatch_failed', error: e });
      return;
    }
    await this.feed({ type: 'dispatched', turn, started });
  }

  /** A turn's end goes back to the machine; a turn that threw inside the engine (or whose end did) is settled by it. */
  private runTurn(d: Extract<Decision, { kind: 'run_turn' }>): void {
    const opts = {
      fresh: d.fresh,
      ...(d.redeliver === undefined ? {} : { redeliver: d.redeliver }),
      ...(d.startRecorded ? { startRecorded: true } : {}),
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

  // ---- what the swarm asks of the session ----

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

  private async recordFailure(failure: AgentFailure, metadata: Record<string, unknown>, cause: unknown): Promise<void> {
    const fields = { reason: failure.code, message: failure.message, ...failure.details, ...metadata };
    this.host.events.logError('agent_failed', {
      swarm: this.host.swarm,
      agent: this.name,
      ...fields,
      ...(cause instanceof Error && cause.message !== failure.message ? { detail: cause.message.slice(0, 200) } : {}),
    });
    await this.effects.emitOwn({
      type: 'agent_failed',
      message: `Agent ${this.name} failed: ${failure.code}: ${failure.message}`,
      metadata: fields,
    });
  }

  /** Reports an internal failure of this agent's loops (log line + `engine_error`); never throws. */
  report(where: FailureSite, error: unknown, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.effects.report(where, error, metadata);
  }

  async persist(description: SessionDescription | null): Promise<void> {
    await this.effects.persistSession({
      state: this.state,
      attention: this.attention,
      description,
      startedAt: this.startedAtNow,
      lastActivity: this.lastActivityNow,
    });
  }

  // ---- the runner handle's lifecycle ----

  /** Starts the runner from a plan (or attaches a re-attached handle); the session becomes idle. */
  async launch(plan: LaunchPlan, reattached: RunnerHandle | null = null): Promise<boolean> {
    await this.feed({ type: 'launching' });
    this.effects.spec = plan.spec;
    this.startedAtNow = this.effects.now();
    this.seqFloor = await inboxSeqFloor(this.workspace);
    await this.persist(null);
    await this.effects.emitOwn({
      type: 'agent_started',
      message: `Agent ${this.name} is starting.`,
      metadata: { backend: this.spec.backend },
    });
    let handle: RunnerHandle;
    try {
      handle = reattached ?? (await this.host.runners.get(plan.spec.backend).start(plan, this.host.contextFor(plan.spec.agent)));
    } catch (e) {
      // The runner's code and sentence (binary_missing, image_missing, start_failed, …), never the error's class name.
      const failure = startFailureOf(e);
      const facts = egressFactsOf(plan, null);
      if (facts !== null && failure.code === 'egress_unavailable')
        await emitEgressFailed(this.host.events, this.host.swarm, this.name, facts, 'forwarder_start_failed', failure.message);
      await this.fail(failure, {}, e);
      return false;
    }
    this.effects.handle = handle;
    this.attachHandle(handle);
    const description = handle.describe();
    await this.persist(description);
    for (const notice of description.notices) await this.emitNotice(notice);
    this.egress = egressFactsOf(plan, description);
    if (this.egress !== null) await emitEgressStarted(this.host.events, this.host.swarm, this.name, this.egress);
    handle.onEgressLost?.((detail) => void this.egressLost(detail));
    return true;
  }

  private async emitNotice(notice: string): Promise<void> {
    // ssh_host_key_unverified: an ssh agent connected with silently_accept_hosts (docs/security.md "ssh trust model");
    // network_unfiltered: a none/isolated swarm task without the network filter (docs/runners.md "swarm")
    if (
      notice === 'api_key_withheld' ||
      notice === 'unsafe_bypass_enabled' ||
      notice === 'ssh_host_key_unverified' ||
      notice === 'network_unfiltered'
    ) {
      await this.effects.emitOwn({ type: notice, message: `Agent ${this.name}: ${notice.replace(/_/g, ' ')}.` });
    }
  }

  /**
   * After start and after re-attach: reads the isolation the live client really has (docs/runners.md "Effective
   * isolation"). When it contradicts the plan the session needs attention (`isolation_mismatch`, with the
   * differences in the event); a runner without the check (ssh, apple_container, mock) leaves `isolation` null.
   */
  async verifyIsolation(): Promise<AttentionInfo | null> {
    this.isolationNow = null;
    const handle = this.handle;
    if (handle?.isolation === undefined) return null;
    try {
      this.isolationNow = await handle.isolation();
    } catch (e) {
      // A client that already exited has nothing to read (its exit is reported on its own); otherwise the check
      // itself failed: reported, and the agent keeps running.
      // expected: a handle that cannot even answer health() is gone, which counts as exited
      const health = await handle.health().catch(() => 'exited' as const);
      if (health === 'running') await this.report('isolation_check', e);
      return null;
    }
    if (this.isolationNow.differences.length === 0) return null;
    await this.effects.emitOwn({
      type: 'agent_needs_attention',
      message: `Agent ${this.name} needs attention (isolation_mismatch): the running process does not have the isolation its plan promised.`,
      metadata: { reason: 'isolation_mismatch', differences: this.isolationNow.differences },
    });
    return { reason: 'isolation_mismatch', turn: null };
  }

  /**
   * After launch: the session goes idle (or keeps a persisted needs_attention) and the scheduler runs. A TUI client
   * with screen rules is idle only once it is ready for a task (client-attention.ts); until then it is `starting`.
   * A client that exited during the start stays `failed` (the machine ignores `ready` then).
   */
  async becomeReady(keep: AttentionInfo | null = null): Promise<void> {
    keep = (await this.verifyIsolation()) ?? keep;
    const stuck =
      keep === null && !this.machine.closed ? await this.readyWait.run(this.handle, (e) => this.report('client_screen', e)) : null;
    await this.feed({ type: 'ready', keep, stuck });
  }

  /** Recovery: the session resumes an in-flight turn instead of going idle. */
  async becomeBusyWith(turn: TurnRow, redeliver: boolean): Promise<void> {
    // re-attached mid-turn: the block is refreshed and a mismatch reported; the turn in flight is still resumed
    await this.verifyIsolation();
    await this.feed({ type: 'resume_busy', turn, redeliver });
  }

  private attachHandle(handle: RunnerHandle): void {
    // a dialog between turns or during one: the agent waits for its operator (an open turn stays open)
    if (handle.onClientBlocked !== undefined)
      this.unsubs.push(
        handle.onClientBlocked((b) => {
          const attention = blocked(this.turns.currentId(), { dialog: b.dialog, last_lines: b.lastLines });
          this.fire({ type: 'client_blocked', attention }, 'client_screen');
        }),
      );
    this.unsubs.push(
      handle.onOutput((stream, line) => {
        this.output.keep({ timestamp: this.effects.now(), stream, line });
        this.effects.push({ type: 'agent_output', payload: { agent: this.name, stream, content: line } });
      }),
      handle.onExit((code, signal, info) => {
        if (this.machine.closed) return;
        // `oom_killed`: the agent's memory cgroup killed it (memory_limit); otherwise a plain exit. A TUI client's
        // last screen goes into the details.
        void lastScreenLines(handle)
          .then((lines) => this.fail(exitFailureOf(info?.reason ?? 'process_exited', code, signal, lines)))
          .then(() => this.endEgress('process_exited')) // the runner stops the forwarder when its client exits
          .then(() => this.turns.failOnExit(this.failure?.code ?? 'process_exited', EXIT_RECEIPT_GRACE_MS)) // its open turn fails, never hangs
          .catch((e: unknown) => this.report('agent_exit', e));
      }),
    );
  }

  /** Stops the runner; an in-flight turn is cancelled and settled once the process is gone. */
  async stop(finalState: 'stopped' | null = 'stopped'): Promise<void> {
    await this.feed({ type: 'stopping' });
    const cancelled = await this.turns.cancel();
    for (const u of this.unsubs.splice(0)) u();
    await this.stopHandle();
    await this.endEgress('agent_stopped');
    if (cancelled !== null) await this.settleCancelled(cancelled);
    if (finalState !== null) await this.feed({ type: 'stopped' });
  }

  private async stopHandle(): Promise<void> {
    const h = this.effects.handle;
    this.effects.handle = null;
    if (h !== null) await h.stop({ graceMs: 2000 }).catch((e: unknown) => this.report('agent_stop', e));
  }

  /**
   * A cancelled turn is over for good (docs/messaging.md, exactly once): its inbox file has the host
   * receipt (written before the store update; written here again, idempotently, for the paths that had
   * no session), so the next process in this workspace skips it instead of answering it again, and what
   * the stopped process left in `.outbox` is deleted unrouted (one `outbox_rejected`, `turn_cancelled`).
   */
  async settleCancelled(turnId: string): Promise<void> {
    await this.effects.writeHostReceipt(turnId, TURN_CANCELLED_ERROR);
    await this.effects.discardOutbox(turnId).catch((e: unknown) => this.report('outbox_discard', e, { turn: turnId }));
  }

  /**
   * Server shutdown for a backend that cannot be re-attached: the process is stopped (it must not
   * outlive the server, docs/receipts.md) but nothing is recorded — no state change, an in-flight turn
   * stays open, so recovery restarts the agent and redelivers that turn (same id, same inbox file).
   */
  async release(): Promise<void> {
    this.abandon();
    await this.stopHandle();
  }

  /** The forwarder died under the running client: one `egress_failed`, and it counts as the forwarder's end. */
  private async egressLost(detail: string): Promise<void> {
    const facts = this.egress;
    if (facts === null || this.machine.closed) return;
    this.egress = null;
    await emitEgressFailed(this.host.events, this.host.swarm, this.name, facts, 'forwarder_exited', detail).catch((e: unknown) =>
      this.report('agent_exit', e),
    );
  }

  /** Records the forwarder's end once; a release or crash records nothing (the next start records anew). */
  private async endEgress(reason: EgressStopReason): Promise<void> {
    const facts = this.egress;
    this.egress = null;
    if (facts !== null) await emitEgressStopped(this.host.events, this.host.swarm, this.name, facts, reason);
  }

  /** Drops the instance without stopping anything (tests simulate a crash with it). */
  abandon(): void {
    this.fire({ type: 'abandoned' }, 'agent_stop');
    this.turns.abandon();
    for (const u of this.unsubs.splice(0)) u();
  }
}
