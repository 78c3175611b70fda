/**
 * One agent: the thin shell around its state machine. Its turn/dispatch loop is `SessionLoop` (session-loop.ts:
 * events in, decisions executed through the effects port); this adds the runner handle's lifecycle — start or
 * re-attach, the isolation check, the ready wait, output and exit listeners, stop, release — and the forwarder's
 * record. Turns are run by the `TurnRunner`, which reports how each ended and never calls back.
 */
import type { AgentLaunchSpec, IsolationReport, LaunchPlan, RunnerHandle, SessionDescription } from '@genswarms/runners';
import type { AttentionInfo, TurnRow } from '../store/store';
import { exitFailureOf, lastScreenLines, startFailureOf } from './agent-failure';
import { blocked } from './client-attention';
import { EgressRecord, type EgressStopReason } from './egress-events';
import { TURN_CANCELLED_ERROR } from './host-receipt';
import { inboxSeqFloor } from './inbox-floor';
import { OutputLog, type LogLine } from './output-log';
import type { SessionHost } from './session-host';
import { SessionLoop } from './session-loop';

export type { LogLine } from './output-log';

/** After a client's exit, how long its open turn's watcher may still find a receipt written just before it (ms). */
const EXIT_RECEIPT_GRACE_MS = 1000;

export class AgentSession extends SessionLoop {
  private readonly output = new OutputLog();
  private isolationNow: IsolationReport | null = null;
  private startedAtNow: string | null = null;
  private unsubs: (() => void)[] = [];
  /** The isolated agent's forwarder while it runs (recorded by egress_started, ended by egress_stopped). */
  private readonly egress: EgressRecord;

  constructor(host: SessionHost, name: string, spec: AgentLaunchSpec) {
    super(host, name, spec);
    this.egress = new EgressRecord(host.events, host.swarm, name);
  }

  /** The isolation read from the live process at the last start or re-attach (null: not checked). */
  get isolation(): IsolationReport | null {
    return this.isolationNow;
  }
  get startedAt(): string | null {
    return this.startedAtNow;
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

  async persist(description: SessionDescription | null): Promise<void> {
    await this.effects.persistSession({
      state: this.state,
      attention: this.attention,
      description,
      startedAt: this.startedAtNow,
      lastActivity: this.lastActivityNow,
    });
  }

  /** Starts the runner from a plan (or attaches a re-attached handle) with the plan's spec; any hold is dropped. */
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
      if (failure.code === 'egress_unavailable') await this.egress.startFailed(plan, failure.message);
      await this.fail(failure, {}, e);
      return false;
    }
    this.effects.handle = handle;
    this.attachHandle(handle);
    const description = handle.describe();
    await this.persist(description);
    await this.effects.emitNotices(description.notices);
    await this.egress.started(plan, description);
    handle.onEgressLost?.((detail) => void this.egressLost(detail));
    // ssh/swarm: the remote receipt watcher is gone; turns still complete, at the fallback poll's latency
    handle.onReceiptPushLost?.((detail) => {
      if (this.closed) return;
      void this.effects
        .emitOwn({ type: 'receipt_push_lost', metadata: { detail }, message: `Agent ${this.name}: ${detail}.` })
        .catch((e: unknown) => this.report('agent_exit', e));
    });
    return true;
  }

  /**
   * After start and after re-attach: reads the isolation the live client really has; a contradiction with the plan
   * is a hold (`isolation_mismatch`) for the caller to keep.
   */
  async verifyIsolation(): Promise<AttentionInfo | null> {
    this.isolationNow = null;
    const read = await this.effects.readIsolation();
    this.isolationNow = read.isolation;
    return read.hold;
  }

  /**
   * After launch: the session goes idle (or keeps a persisted needs_attention) and the scheduler runs. A TUI client
   * with screen rules is idle only once it is ready for a task (client-attention.ts); until then it is `starting`.
   * A client that exited during the start stays `failed` (the machine ignores `ready` then).
   */
  async becomeReady(keep: AttentionInfo | null = null): Promise<void> {
    keep = (await this.verifyIsolation()) ?? keep;
    const stuck = keep === null && !this.closed ? await this.readyWait.run(this.handle, (e) => this.report('client_screen', e)) : null;
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
    if (this.closed) return;
    await this.egress.lost(detail).catch((e: unknown) => this.report('agent_exit', e));
  }

  private async endEgress(reason: EgressStopReason): Promise<void> {
    await this.egress.ended(reason);
  }

  /** Drops the instance without stopping anything (tests simulate a crash with it). */
  abandon(): void {
    this.fire({ type: 'abandoned' }, 'agent_stop');
    this.turns.abandon();
    for (const u of this.unsubs.splice(0)) u();
  }
}
