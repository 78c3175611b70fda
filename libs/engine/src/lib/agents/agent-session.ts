/**
 * One agent: its runner handle, session state, inbox scheduling (one turn at a time, exactly-once
 * dispatch through `store.dispatchNext`), output log, outbox poll and `awaiting` flag.
 */
import type { AgentConfig } from '@genswarms/ir-gate';
import { newTurnId } from '@genswarms/receipts';
import type { AgentLaunchSpec, IsolationReport, LaunchPlan, RunnerHandle, SessionDescription } from '@genswarms/runners';
import type { EventBus } from '../events/event-bus';
import type { PushHub } from '../events/pushes';
import type { RoutingHost } from '../routing/router';
import type { AttentionInfo, SessionState, Store, TurnRow } from '../store/store';
import type { Clock, TimerHandle } from '../util/clock';
import { bumpStateEpoch } from './state-epoch';
import type { FailureSite } from '../events/failure-report';
import { inboxSeqFloor } from './inbox-floor';
import { isStorageFullError } from '../store/storage-full';
import { isTuiBackend } from './launch-spec';
import { LOG_KEEP_CHARS, LOG_KEEP_LINES, type SessionHost } from './session-host';
import { TurnRunner, type RunOptions } from './turn-runner';
import { discardOutbox, drainAndRoute, routeCompletion } from './outbox-routing';
import type { OutboxOwner, TurnHost, TurnSends } from './session-ports';
import { TURN_CANCELLED_ERROR, writeHostReceipt } from './host-receipt';
import { newOutboxMemo, type OutboxMemo } from '../routing/outbox';
import { OutboxSchedule } from '../routing/outbox-schedule';
import { exitFailureOf, lastScreenLines, startFailureOf, type AgentFailure } from './agent-failure';
import { blocked, ClientReadyWait, holdForAttention } from './client-attention';
import {
  egressFactsOf,
  emitEgressFailed,
  emitEgressStarted,
  emitEgressStopped,
  type EgressFacts,
  type EgressStopReason,
} from './egress-events';

/** After a client's exit, how long its open turn's watcher may still find a receipt written just before it (ms). */
const EXIT_RECEIPT_GRACE_MS = 1000;

export interface LogLine {
  readonly timestamp: string;
  readonly stream: 'stdout' | 'stderr';
  readonly line: string;
}

export class AgentSession implements TurnHost, OutboxOwner {
  handle: RunnerHandle | null = null;
  private stateNow: SessionState = 'starting';
  attention: AttentionInfo | null = null;
  /** The isolation read from the live process at the last start or re-attach (null: not checked). */
  isolation: IsolationReport | null = null;
  /** Why the agent is `failed` (code, sentence, details); null in every other state. */
  failure: AgentFailure | null = null;
  awaiting = false;
  /** One `outbox_rejected` per period of a non-directory `.outbox`. */
  outboxDirRejected = false;
  /** Outbox entries that could not be removed, reported once (routing/outbox.ts). */
  readonly outboxMemo: OutboxMemo = newOutboxMemo();
  startedAt: string | null = null;
  lastActivity: string | null = null;
  /** Highest seq already used in the workspace when this session launched (see inbox-floor.ts). */
  seqFloor = 0;
  readonly logs: LogLine[] = [];
  /** Characters of the lines in `logs`. */
  private logChars = 0;
  private awaitTimer: TimerHandle | null = null;
  private outbox: OutboxSchedule | null = null;
  private outboxBusy: Promise<void> = Promise.resolve();
  private kicking = false;
  private kickAgain = false;
  /** A dispatch or outbox-poll failure is reported once per streak of failures, not on every retry. */
  private dispatchFailing = false;
  private outboxFailing = false;
  private dispatchRetry: TimerHandle | null = null;
  /** A turn that a full disk kept from being stored, retried until space returns (issue 19 §2). */
  private storageRetry: TimerHandle | null = null;
  private closed = false;
  private unsubs: (() => void)[] = [];
  /** The isolated agent's forwarder while it runs (recorded by egress_started, ended by egress_stopped). */
  private egress: EgressFacts | null = null;
  /** becomeReady's wait for a TUI client's ready screen; a stop aborts it. */
  private readonly readyWait = new ClientReadyWait();
  readonly turns: TurnRunner;

  get state(): SessionState {
    return this.stateNow;
  }

  /** Every state change moves the state epoch (state-epoch.ts): cached state summaries see it. */
  set state(next: SessionState) {
    this.stateNow = next;
    bumpStateEpoch();
  }

  constructor(
    readonly host: SessionHost,
    readonly name: string,
    public spec: AgentLaunchSpec,
  ) {
    bumpStateEpoch();
    this.turns = new TurnRunner(this);
  }

  get workspace(): string {
    return this.spec.workspace;
  }

  get isTui(): boolean {
    return isTuiBackend(this.spec.backend);
  }

  now(): string {
    return this.host.clock.now().toISOString();
  }

  // ---- the narrow views (TurnHost, OutboxOwner) over the swarm this session runs in ----
  get swarm(): string {
    return this.host.swarm;
  }
  get store(): Store {
    return this.host.store;
  }
  get events(): EventBus {
    return this.host.events;
  }
  get pushes(): PushHub {
    return this.host.pushes;
  }
  get clock(): Clock {
    return this.host.clock;
  }
  get routing(): RoutingHost {
    return this.host.routing;
  }
  get receiptPollMs(): number | undefined {
    return this.host.receiptPollMs;
  }

  agentConfig(): AgentConfig | undefined {
    return this.host.agentConfig(this.name);
  }

  noteSend(to: string): void {
    this.turns.noteSend(to);
  }

  noteBroadcast(): void {
    this.turns.noteBroadcast();
  }

  routeCompletion(turnId: string, reply: string, sends: TurnSends): Promise<void> {
    return routeCompletion(this, turnId, reply, sends);
  }

  /** Persists and pushes a state change (`agent_status`). */
  async setState(state: SessionState, attention: AttentionInfo | null = null): Promise<void> {
    const previous = this.state;
    this.state = state;
    if (state !== 'failed') this.failure = null;
    this.attention = attention;
    this.lastActivity = this.now();
    await this.host.store.setSessionState(this.host.swarm, this.name, state, attention, this.lastActivity);
    if (previous !== state)
      this.host.pushes.push(this.host.swarm, { type: 'agent_status', payload: { agent: this.name, state, previous } });
  }

  async persist(description: SessionDescription | null): Promise<void> {
    await this.host.store.upsertSession({
      swarm: this.host.swarm,
      agent: this.name,
      state: this.state,
      needsAttention: this.attention,
      description,
      workspace: this.workspace,
      startedAt: this.startedAt,
      lastActivity: this.lastActivity,
    });
  }

  /** Starts the runner from a plan (or attaches a re-attached handle); the session becomes idle. */
  async launch(plan: LaunchPlan, reattached: RunnerHandle | null = null): Promise<boolean> {
    this.closed = false;
    this.startedAt = this.now();
    this.state = 'starting';
    this.seqFloor = await inboxSeqFloor(this.workspace);
    await this.persist(null);
    await this.host.events.emit({
      type: 'agent_started',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Agent ${this.name} is starting.`,
      metadata: { backend: this.spec.backend },
    });
    try {
      this.handle = reattached ?? (await this.host.runners.get(plan.spec.backend).start(plan, this.host.contextFor(plan.spec.agent)));
    } catch (e) {
      // The runner's code and sentence (binary_missing, image_missing, start_failed, …), never the error's class name.
      const failure = startFailureOf(e);
      const facts = egressFactsOf(plan, null);
      if (facts !== null && failure.code === 'egress_unavailable')
        await emitEgressFailed(this.host.events, this.host.swarm, this.name, facts, 'forwarder_start_failed', failure.message);
      await this.fail(failure, {}, e);
      return false;
    }
    this.attachHandle(this.handle);
    const description = this.handle.describe();
    await this.persist(description);
    for (const notice of description.notices) await this.emitNotice(notice);
    this.egress = egressFactsOf(plan, description);
    if (this.egress !== null) await emitEgressStarted(this.host.events, this.host.swarm, this.name, this.egress);
    this.handle.onEgressLost?.((detail) => void this.egressLost(detail));
    // ssh/swarm: the remote receipt watcher is gone; turns still complete, at the fallback poll's latency
    this.handle.onReceiptPushLost?.((detail) => {
      if (this.closed) return;
      const event = { type: 'receipt_push_lost', swarm: this.host.swarm, agent: this.name, metadata: { detail } } as const;
      void this.host.events
        .emit({ ...event, message: `Agent ${this.name}: ${detail}.` })
        .catch((e: unknown) => this.report('agent_exit', e));
    });
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
      await this.host.events.emit({
        type: notice,
        swarm: this.host.swarm,
        agent: this.name,
        message: `Agent ${this.name}: ${notice.replace(/_/g, ' ')}.`,
      });
    }
  }

  /**
   * After start and after re-attach: reads the isolation the live client really has (docs/runners.md "Effective
   * isolation"). When it contradicts the plan the session needs attention (`isolation_mismatch`, with the
   * differences in the event); a runner without the check (ssh, apple_container, mock) leaves `isolation` null.
   */
  async verifyIsolation(): Promise<AttentionInfo | null> {
    this.isolation = null;
    if (this.handle?.isolation === undefined) return null;
    try {
      this.isolation = await this.handle.isolation();
    } catch (e) {
      // A client that already exited has nothing to read (its exit is reported on its own); otherwise the check
      // itself failed: reported, and the agent keeps running.
      // expected: a handle that cannot even answer health() is gone, which counts as exited
      const health = await this.handle.health().catch(() => 'exited' as const);
      if (health === 'running') await this.report('isolation_check', e);
      return null;
    }
    if (this.isolation.differences.length === 0) return null;
    await this.host.events.emit({
      type: 'agent_needs_attention',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Agent ${this.name} needs attention (isolation_mismatch): the running process does not have the isolation its plan promised.`,
      metadata: { reason: 'isolation_mismatch', differences: this.isolation.differences },
    });
    return { reason: 'isolation_mismatch', turn: null };
  }

  /**
   * After launch: the session goes idle (or keeps a persisted needs_attention) and the scheduler runs. A TUI client
   * with screen rules is idle only once it is ready for a task (client-attention.ts); until then it is `starting`.
   */
  async becomeReady(keep: AttentionInfo | null = null): Promise<void> {
    keep = (await this.verifyIsolation()) ?? keep;
    const stuck = keep === null && !this.closed ? await this.readyWait.run(this.handle, (e) => this.report('client_screen', e)) : null;
    // Its client may have exited during the start (a fork loop dying at its pids limit): that made it `failed`, and
    // it stays so — issue 19 found it `idle` after its `agent_failed`, with no process behind it.
    if (this.state === 'failed' || this.state === 'stopped' || this.closed) return;
    if (stuck !== null) await holdForAttention(this, stuck);
    else if (keep !== null) await this.setState('needs_attention', keep);
    else await this.setState('idle');
    await this.host.events.emit({ type: 'agent_ready', swarm: this.host.swarm, agent: this.name, message: `Agent ${this.name} is ready.` });
    this.startOutboxPoll();
    this.kick();
  }

  /** Recovery: the session resumes an in-flight turn instead of going idle. */
  async becomeBusyWith(turn: TurnRow, redeliver: boolean): Promise<void> {
    // re-attached mid-turn: the block is refreshed and a mismatch reported; the turn in flight is still resumed
    await this.verifyIsolation();
    await this.setState('busy');
    await this.host.events.emit({
      type: 'agent_ready',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Agent ${this.name} re-attached; resuming turn ${turn.id}.`,
      metadata: { turn: turn.id },
    });
    this.startOutboxPoll();
    this.resumeTurn(turn, redeliver);
  }

  private attachHandle(handle: RunnerHandle): void {
    // a dialog between turns or during one: the agent waits for its operator (an open turn stays open)
    if (handle.onClientBlocked !== undefined)
      this.unsubs.push(
        handle.onClientBlocked((b) => {
          if (this.closed || (this.state !== 'idle' && this.state !== 'busy')) return;
          const attention = blocked(this.turns.currentId(), { dialog: b.dialog, last_lines: b.lastLines });
          void holdForAttention(this, attention).catch((e: unknown) => this.report('client_screen', e));
        }),
      );
    this.unsubs.push(
      handle.onOutput((stream, line) => {
        this.keepLog({ timestamp: this.now(), stream, line });
        this.host.pushes.push(this.host.swarm, { type: 'agent_output', payload: { agent: this.name, stream, content: line } });
      }),
      handle.onExit((code, signal, info) => {
        if (this.closed) return;
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

  /** Keeps the newest output lines: at most LOG_KEEP_LINES of them and LOG_KEEP_CHARS characters (the newest line always). */
  private keepLog(entry: LogLine): void {
    this.logs.push(entry);
    this.logChars += entry.line.length;
    let drop = 0;
    while (drop < this.logs.length - 1 && (this.logs.length - drop > LOG_KEEP_LINES || this.logChars > LOG_KEEP_CHARS)) {
      this.logChars -= (this.logs[drop] as LogLine).line.length;
      drop += 1;
    }
    if (drop > 0) this.logs.splice(0, drop);
  }

  /**
   * The agent is `failed`: the failure (code, sentence, details) is kept for the status, logged once and
   * recorded as `agent_failed` (`reason` = the code). `cause` (the thrown error) reaches only the log.
   */
  async fail(failure: AgentFailure, metadata: Record<string, unknown> = {}, cause?: unknown): Promise<void> {
    if (this.state === 'failed' || this.state === 'stopped') return;
    this.stopTimers();
    this.failure = failure;
    await this.setState('failed');
    const fields = { reason: failure.code, message: failure.message, ...failure.details, ...metadata };
    this.host.events.logError('agent_failed', {
      swarm: this.host.swarm,
      agent: this.name,
      ...fields,
      ...(cause instanceof Error && cause.message !== failure.message ? { detail: cause.message.slice(0, 200) } : {}),
    });
    await this.host.events.emit({
      type: 'agent_failed',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Agent ${this.name} failed: ${failure.code}: ${failure.message}`,
      metadata: fields,
    });
  }

  /**
   * Reports an internal failure of this agent's loops (log line + `engine_error`); never throws, so a
   * loop can always go on to a defined state after it.
   */
  report(where: FailureSite, error: unknown, metadata: Record<string, unknown> = {}): Promise<void> {
    return this.host.events.reportFailure({ where, swarm: this.host.swarm, agent: this.name, error, metadata });
  }

  /** Schedules work; at most one dispatch loop runs per agent. */
  kick(): void {
    if (this.kicking) {
      this.kickAgain = true;
      return;
    }
    this.kicking = true;
    void this.dispatchLoop()
      .then(
        () => {
          this.dispatchFailing = false;
        },
        (e: unknown) => this.dispatchFailed(e),
      )
      .finally(() => {
        this.kicking = false;
        if (this.kickAgain) {
          this.kickAgain = false;
          this.kick();
        }
      });
  }

  private async dispatchLoop(): Promise<void> {
    if (this.state !== 'idle' || this.closed) return;
    // turn_started is written in the dispatch's transaction (one commit), announced once the agent is busy.
    const started = this.host.events.along((t: TurnRow) => ({
      type: 'turn_started',
      swarm: this.host.swarm,
      agent: this.name,
      message: `Turn ${t.id} started.`,
      metadata: { turn: t.id, item_id: t.itemId, from: t.from },
    }));
    const turn = await this.host.store.dispatchNext(
      {
        swarm: this.host.swarm,
        agent: this.name,
        turnId: newTurnId(),
        now: this.now(),
        messagesOnly: this.awaiting,
        seqFloor: this.seqFloor,
      },
      started,
    );
    if (turn === null) return;
    this.state = 'busy';
    this.host.pushes.push(this.host.swarm, { type: 'agent_status', payload: { agent: this.name, state: 'busy', previous: 'idle' } });
    this.host.events.announce(started);
    if (turn.kind === 'message') this.clearAwaiting();
    this.runTurn(turn, { fresh: true, startRecorded: true });
  }

  /** The queue could not be read (a store failure): the agent stays idle and dispatch is retried a poll period later. */
  private async dispatchFailed(error: unknown): Promise<void> {
    if (!this.dispatchFailing) await this.report('dispatch', error);
    this.dispatchFailing = true;
    if (this.closed || this.dispatchRetry !== null) return;
    this.dispatchRetry = this.host.clock.setTimer(this.host.outboxPollMs, () => {
      this.dispatchRetry = null;
      if (!this.closed) this.kick();
    });
  }

  private runTurn(turn: TurnRow, opts: RunOptions): void {
    void this.turns.run(turn, opts).catch((e: unknown) => this.turnFailed(turn, e));
  }

  /**
   * A turn threw inside the engine (a store or event write failed): reported, then the turn ends as
   * `error` (`engine_error`) and a busy agent goes idle and takes the next item (needs_attention and
   * failed stay). If even that fails, the agent is `failed` — never left `busy`. A stopping session
   * settles its turn itself.
   */
  private async turnFailed(turn: TurnRow, error: unknown): Promise<void> {
    if (isStorageFullError(error)) {
      this.retryAfterStorageFull(turn);
      return;
    }
    await this.report('turn', error, { turn: turn.id });
    if (this.closed) return;
    try {
      await this.turns.failInternally(turn);
      if (this.state === 'needs_attention') {
        await this.setState('needs_attention', this.attention); // a rejected receipt keeps the agent held
      } else if (this.state === 'busy' || this.state === 'idle') {
        await this.setState('idle');
        this.kick();
      }
    } catch (e) {
      await this.report('turn_settle', e, { turn: turn.id });
      const failure = {
        code: 'engine_error',
        message: `turn ${turn.id} could not be settled in the store; restart the agent`,
        details: {},
      };
      await this.fail(failure, { turn: turn.id }).catch((e2: unknown) => this.report('turn_settle', e2, { turn: turn.id }));
    }
  }

  /**
   * The disk was full while this turn was being stored (storage_full): the turn is neither failed nor dropped.
   * Re-read it a poll period later: still open → watched again (its receipt is still on disk; `finishTurn`
   * finishes it once); already finished → the agent goes idle and takes the next item. The outage itself is
   * reported once by the store guard (storage_full / storage_recovered events).
   */
  private retryAfterStorageFull(turn: TurnRow): void {
    if (this.closed || this.storageRetry !== null) return;
    this.storageRetry = this.host.clock.setTimer(this.host.outboxPollMs, () => {
      this.storageRetry = null;
      void this.resumeAfterStorageFull(turn).catch((e: unknown) => this.turnFailed(turn, e));
    });
  }

  private async resumeAfterStorageFull(turn: TurnRow): Promise<void> {
    if (this.closed) return;
    const row = await this.host.store.getTurn(turn.id);
    if (row === null) return;
    if (row.completedAt === null) {
      this.resumeTurn(this.turns.withDelivery(row), false);
      return;
    }
    if (this.state === 'busy') await this.setState('idle');
    this.kick();
  }

  markAwaiting(): void {
    this.awaiting = true;
    this.awaitTimer?.cancel();
    this.awaitTimer = this.host.clock.setTimer(this.host.awaitingMs, () => {
      this.awaitTimer = null;
      this.awaiting = false;
      if (!this.closed) this.kick();
    });
  }

  clearAwaiting(): void {
    this.awaiting = false;
    this.awaitTimer?.cancel();
    this.awaitTimer = null;
  }

  /** Outbox drains on inotify wake-ups plus a backing-off fallback poll (routing/outbox-schedule.ts). */
  private startOutboxPoll(): void {
    this.outbox?.close();
    this.outbox = new OutboxSchedule({
      workspace: this.workspace,
      clock: this.host.clock,
      basePollMs: this.host.outboxPollMs,
      drain: () =>
        this.closed
          ? Promise.resolve()
          : this.drainOutbox(this.turns.currentId()).then(
              () => {
                this.outboxFailing = false;
              },
              async (e: unknown) => {
                if (!this.outboxFailing) await this.report('outbox_poll', e);
                this.outboxFailing = true;
              },
            ),
    });
    this.outbox.start();
  }

  /** Serialised outbox drain (the poll and the turn-completion drain never overlap). */
  drainOutbox(turnId: string | null, sends?: TurnSends): Promise<void> {
    const run = this.outboxBusy.then(() => drainAndRoute(this, turnId, sends));
    this.outboxBusy = run.catch(() => undefined); // expected: the chain only orders drains; `run`'s caller gets the failure
    return run;
  }

  /** Resumes a turn that was in flight when the engine stopped (recovery). */
  resumeTurn(turn: TurnRow, redeliver: boolean): void {
    this.state = 'busy';
    this.runTurn(turn, { fresh: !turn.delivered, redeliver });
  }

  private stopTimers(): void {
    this.outbox?.close();
    this.outbox = null;
    this.dispatchRetry?.cancel();
    this.dispatchRetry = null;
    this.storageRetry?.cancel();
    this.storageRetry = null;
    this.clearAwaiting();
  }

  /**
   * The shared resource this agent's stop queues on, so a swarm stop can take turns between them: the tmux server
   * holding its window (SessionDescription.tmuxServer); undefined for every other backend (or no process).
   */
  get stopLane(): number | undefined {
    return this.handle?.describe().tmuxServer;
  }

  /** Stops the runner; an in-flight turn is cancelled and settled once the process is gone. */
  async stop(finalState: 'stopped' | null = 'stopped'): Promise<void> {
    this.closed = true;
    this.readyWait.abort();
    this.stopTimers();
    const cancelled = await this.turns.cancel();
    for (const u of this.unsubs.splice(0)) u();
    const h = this.handle;
    this.handle = null;
    if (h !== null) await h.stop({ graceMs: 2000 }).catch((e: unknown) => this.report('agent_stop', e));
    await this.endEgress('agent_stopped');
    if (cancelled !== null) await this.settleCancelled(cancelled);
    if (finalState !== null) await this.setState(finalState);
  }

  /**
   * A cancelled turn is over for good (docs/messaging.md, exactly once): its inbox file has the host
   * receipt (written before the store update; written here again, idempotently, for the paths that had
   * no session), so the next process in this workspace skips it instead of answering it again, and what
   * the stopped process left in `.outbox` is deleted unrouted (one `outbox_rejected`, `turn_cancelled`).
   */
  async settleCancelled(turnId: string): Promise<void> {
    await writeHostReceipt(this.workspace, turnId, TURN_CANCELLED_ERROR);
    const run = this.outboxBusy.then(() => discardOutbox(this, turnId));
    this.outboxBusy = run.catch(() => undefined); // expected: the chain only orders drains; the failure is reported below
    await run.catch((e: unknown) => this.report('outbox_discard', e, { turn: turnId }));
  }

  /**
   * Server shutdown for a backend that cannot be re-attached: the process is stopped (it must not
   * outlive the server, docs/receipts.md) but nothing is recorded — no state change, an in-flight turn
   * stays open, so recovery restarts the agent and redelivers that turn (same id, same inbox file).
   */
  async release(): Promise<void> {
    this.abandon();
    const h = this.handle;
    this.handle = null;
    if (h !== null) await h.stop({ graceMs: 2000 }).catch((e: unknown) => this.report('agent_stop', e));
  }

  /** The forwarder died under the running client: one `egress_failed`, and it counts as the forwarder's end. */
  private async egressLost(detail: string): Promise<void> {
    const facts = this.egress;
    if (facts === null || this.closed) return;
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
    this.closed = true;
    this.readyWait.abort();
    this.stopTimers();
    this.turns.abandon();
    for (const u of this.unsubs.splice(0)) u();
  }
}
