/**
 * The RunnerHandle of one swarm agent: its task's container on its node, reached through that node's engine.
 * Turn files move through the remote-workspace port over the Docker archive API (docs/receipts.md "Remote
 * receipts"); the exit comes from the node engine's `wait`; the manager is watched for a rescheduled task, which
 * ends the session with `agent_rescheduled` and fails the turn in flight (never run twice).
 */
import type DockerClient from 'dockerode';
import type { TurnReceipt } from '@genswarms/receipts';
import type { ExitInfo, OutputStream, RunnerHandle, SessionDescription, SessionHealth, TurnDelivery } from '../port';
import { RunnerError } from '../errors/runner-error';
import { OutputHub } from '../process/output-hub';
import type { DockerPort, LogFollow } from '../docker/docker-port';
import { LineSplitter } from '../docker/log-demux';
import type { RemoteWorkspace } from '../remote/workspace-port';
import { removeSwarmObjects, tolerant, type SwarmObjects } from './swarm-objects';
import { tasksOf } from './swarm-task';
import type { PushWake } from '../remote/receipt-push';
import { ReceiptWatch, type WatcherStream } from '../remote/receipt-watch';

/** Receipt poll interval through the archive API (ms) without a live receipt watcher (none, or it died). */
export const SWARM_RECEIPT_POLL_MS = 100;
/** The fallback poll while the receipt watcher in the container is live (its pushes wake the handle at once). */
export const SWARM_RECEIPT_PUSH_POLL_MS = 1000;
/** Manager poll for a rescheduled or vanished task (ms). */
export const SWARM_TASK_POLL_MS = 1000;
/** A malformed done.json is final only when still malformed this long after it was first seen. */
export const SWARM_MALFORMED_SETTLE_MS = 500;
/** Consecutive failed polls (node engine unreachable) before the turn fails. */
export const SWARM_POLL_FAILURES_MAX = 20;

type FinalReceipt = Exclude<TurnReceipt, { kind: 'pending' }>;
type ExitListener = (code: number | null, signal: string | null, info?: ExitInfo) => void;

export interface SwarmHandleDeps {
  readonly manager: DockerClient;
  readonly node: DockerClient;
  readonly nodePort: DockerPort;
  readonly task: { readonly taskId: string; readonly nodeId: string; readonly containerId: string; readonly serviceId: string };
  readonly description: SessionDescription;
  readonly workspace: RemoteWorkspace;
  readonly objects: SwarmObjects;
  /** The workspace volume on the node (removed after the container). */
  readonly volume: string | undefined;
  /** Logs since (seconds since epoch; 0 = all). */
  readonly logsSinceSeconds: number;
  readonly onOutboxRefused?: (names: readonly string[]) => void;
  /** Starts the receipt watcher in the task's container (swarm-receipt-watch.ts); absent = poll only. */
  readonly startWatcher?: () => Promise<WatcherStream>;
  /** The fallback poll while the watcher is live (default SWARM_RECEIPT_PUSH_POLL_MS). */
  readonly pushPollMs?: number | undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function abortError(signal: AbortSignal): Error {
  const e = new Error('aborted', { cause: signal.reason });
  Object.defineProperty(e, 'name', { value: 'AbortError' });
  return e;
}

export class SwarmHandle implements RunnerHandle {
  private readonly hub = new OutputHub();
  private readonly exits = new Set<ExitListener>();
  private exitState: { code: number | null; signal: string | null; info?: ExitInfo } | null = null;
  private follow: LogFollow | undefined;
  private monitor: NodeJS.Timeout | undefined;
  private stopping: Promise<void> | undefined;
  private readonly splitters: Record<OutputStream, LineSplitter>;
  private readonly receipts: ReceiptWatch;

  constructor(private readonly deps: SwarmHandleDeps) {
    this.receipts = new ReceiptWatch({
      pollMs: SWARM_RECEIPT_POLL_MS,
      pushPollMs: deps.pushPollMs ?? SWARM_RECEIPT_PUSH_POLL_MS,
      pushBytes: true, // the watcher's frames replace two archive GETs (docs/receipts.md "Remote receipts: the push")
      ...(deps.startWatcher === undefined ? {} : { start: deps.startWatcher }),
    });
    this.splitters = {
      stdout: new LineSplitter((line) => this.hub.emitLine('stdout', line)),
      stderr: new LineSplitter((line) => this.hub.emitLine('stderr', line)),
    };
  }

  /** Output, exit and the reschedule watch; call once right after construction. */
  async attach(): Promise<void> {
    const { nodePort, task } = this.deps;
    this.follow = await nodePort.logs(task.containerId, (stream, chunk) => this.splitters[stream].push(chunk), {
      sinceSeconds: this.deps.logsSinceSeconds,
    });
    nodePort.wait(task.containerId).then(
      (code) => void this.endedOnNode(code),
      () => undefined, // expected: the node engine lost sight of it; the manager watch reports how it ended
    );
    this.monitor = setInterval(() => void this.checkTask(), SWARM_TASK_POLL_MS);
    this.monitor.unref();
    void this.receipts.ensure(); // started with the client, so it is looking by the first turn (never rejects)
  }

  /** Called when the receipt watcher is lost (or could not start): turns fall back to the 100 ms poll. */
  onReceiptPushLost(listener: (detail: string) => void): void {
    this.receipts.onLost(listener);
  }

  private async checkTask(): Promise<void> {
    if (this.exitState !== null) return;
    let tasks;
    try {
      tasks = await tasksOf(this.deps.manager, this.deps.task.serviceId);
    } catch {
      return; // expected: a manager hiccup; the next poll asks again
    }
    const ours = tasks.find((t) => t.taskId === this.deps.task.taskId);
    const newer = tasks.find((t) => t.taskId !== this.deps.task.taskId && !t.terminal);
    if (newer !== undefined || (ours !== undefined && ours.nodeId !== this.deps.task.nodeId)) {
      this.emitExit(null, null, { reason: 'agent_rescheduled' });
    } else if (ours === undefined || ours.terminal) {
      this.emitExit(ours?.exitCode ?? null, ours?.exitCode === undefined ? 'SIGKILL' : null);
    }
  }

  /**
   * The container ended on its node. Swarm replacing the task (a forced update, a drained node) records the new
   * task (desired `ready`) before it stops the old one, and the node reports the old container's end before the
   * manager poll sees anything: so the manager is asked first, and a newer live task of the service is a
   * reschedule — never a plain exit whose turn would then fail as a transport error. (A desired state `shutdown`
   * alone proves nothing: Swarm also sets it on a task that ended by itself.)
   */
  private async endedOnNode(code: number): Promise<void> {
    if (this.exitState !== null) return;
    if (this.stopping === undefined) {
      try {
        const tasks = await tasksOf(this.deps.manager, this.deps.task.serviceId);
        const ours = tasks.find((t) => t.taskId === this.deps.task.taskId);
        const newer = tasks.find((t) => t.taskId !== this.deps.task.taskId && !t.terminal);
        if (this.stopping === undefined && (newer !== undefined || (ours !== undefined && ours.nodeId !== this.deps.task.nodeId))) {
          this.emitExit(null, null, { reason: 'agent_rescheduled' });
          return;
        }
      } catch {
        // expected: the manager did not answer; the exit is reported as the node saw it
      }
    }
    this.emitExit(code, null);
  }

  private emitExit(code: number | null, signal: string | null, info?: ExitInfo): void {
    if (this.exitState !== null) return;
    this.exitState = { code, signal, ...(info === undefined ? {} : { info }) };
    clearInterval(this.monitor);
    this.receipts.close();
    this.splitters.stdout.flush();
    this.splitters.stderr.flush();
    for (const l of [...this.exits]) l(code, signal, info);
    this.hub.emitExit(code, signal);
  }

  describe(): SessionDescription {
    return this.deps.description;
  }

  async deliver(turn: TurnDelivery): Promise<void> {
    if (this.exitState !== null) throw this.exitError();
    await this.deps.workspace.prepareTurnDir(turn.turnId);
    await this.receipts.ensure();
    this.receipts.watch(turn.turnId); // before the inbox goes up: the watcher is looking when the client answers
    await this.deps.workspace.pushInbox();
  }

  private exitError(): RunnerError {
    if (this.exitState?.info?.reason === 'agent_rescheduled') {
      return new RunnerError(
        'agent_rescheduled',
        'Swarm rescheduled the agent to another task: the turn in flight is failed, never run twice',
      );
    }
    return new RunnerError('runner_error', 'the swarm task has exited');
  }

  async watchReceipt(turnId: string, opts: { readonly signal: AbortSignal }): Promise<FinalReceipt> {
    await this.receipts.ensure();
    this.receipts.watch(turnId);
    try {
      return await this.pollReceipt(turnId, opts.signal);
    } finally {
      this.receipts.unwatch(turnId);
    }
  }

  /** Looks at the receipt at each wake: a push (`look`), outbox activity, or the fallback poll. */
  private async pollReceipt(turnId: string, signal: AbortSignal): Promise<FinalReceipt> {
    let malformedAt: number | null = null;
    let failures = 0;
    // A live watcher was asked at delivery and tells at once about a receipt already there: no first archive look,
    // which a loaded engine can stretch past the push it would then hold up.
    let wake: PushWake = this.receipts.live ? await this.receipts.next(turnId, signal, false) : 'timeout';
    for (;;) {
      if (signal.aborted) throw abortError(signal);
      if (this.exitState?.info?.reason === 'agent_rescheduled') throw this.exitError();
      const exitedBefore = this.exitState !== null; // one more look after the exit: a receipt written last counts
      let receipt: TurnReceipt;
      let drained: boolean;
      try {
        ({ receipt, drained } = await this.look(turnId, wake));
      } catch (e) {
        if (signal.aborted) throw abortError(signal);
        failures += 1;
        if (exitedBefore || failures > SWARM_POLL_FAILURES_MAX) {
          throw new RunnerError('remote_transport_failed', 'the node engine could not be read while the turn ran', { cause: e });
        }
        await sleep(SWARM_RECEIPT_POLL_MS * 5, signal);
        wake = 'timeout';
        continue;
      }
      failures = 0;
      if (receipt.kind === 'refused' && receipt.reason === 'receipt_malformed') {
        malformedAt ??= Date.now();
        if (Date.now() - malformedAt >= SWARM_MALFORMED_SETTLE_MS) return receipt;
      } else if (receipt.kind !== 'pending') {
        if (!drained) await this.syncMailboxes().catch(() => undefined); // best-effort: the final drain; the receipt already counts
        return receipt;
      } else {
        malformedAt = null;
        if (exitedBefore) throw new RunnerError('runner_error', 'the swarm task exited without writing its receipt');
      }
      wake = await this.receipts.next(turnId, signal, malformedAt !== null);
    }
  }

  /**
   * One look after `wake`: the bytes the watcher pushed (its `r` came once done.json existed, so the final outbox drain
   * runs alongside their mirror and parse: `drained`), else the archive read — mailboxes first unless a push woke it.
   */
  private async look(turnId: string, wake: PushWake): Promise<{ receipt: TurnReceipt; drained: boolean }> {
    const pushed = wake === 'receipt' ? this.receipts.takeReceipt(turnId) : undefined;
    if (pushed !== undefined) {
      const [receipt] = await Promise.all([
        this.deps.workspace.acceptReceipt(turnId, pushed),
        this.syncMailboxes().catch(() => undefined), // best-effort: the final drain; the receipt already counts
      ]);
      return { receipt, drained: true };
    }
    if (wake !== 'receipt') await this.syncMailboxes();
    const receipt = await this.deps.workspace.readReceipt(turnId);
    if (wake === 'receipt' && receipt.kind === 'pending') {
      this.receipts.missed(turnId);
      await this.syncMailboxes();
    }
    return { receipt, drained: false };
  }

  private async syncMailboxes(): Promise<void> {
    await this.deps.workspace.pushInbox();
    const out = await this.deps.workspace.pullOutbox();
    if (out.refused.length > 0) this.deps.onOutboxRefused?.(out.refused);
  }

  stop(_opts?: { readonly graceMs?: number }): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    this.receipts.close();
    try {
      await removeSwarmObjects(this.deps.manager, this.deps.objects);
      await this.removeVolume();
    } finally {
      clearInterval(this.monitor);
      this.follow?.close();
      this.emitExit(null, 'SIGTERM');
    }
  }

  /** The workspace volume goes once the node has removed the task's container (bounded wait). */
  private async removeVolume(): Promise<void> {
    const { node, nodePort, task, volume } = this.deps;
    for (let i = 0; i < 60; i += 1) {
      const c = await nodePort.inspect(task.containerId).catch(() => undefined); // expected: node gone → nothing to wait for
      if (c === undefined) break;
      await sleep(500);
    }
    if (volume !== undefined) await tolerant(() => node.getVolume(volume).remove()).catch(() => undefined); // best-effort: a tmpfs volume holds no disk data
  }

  async health(): Promise<SessionHealth> {
    if (this.exitState !== null) return 'exited';
    // expected: an unreachable node engine reports the agent as not running
    const c = await this.deps.nodePort.inspect(this.deps.task.containerId).catch(() => undefined);
    return c?.running === true ? 'running' : 'exited';
  }

  onOutput(listener: (stream: OutputStream, line: string) => void): () => void {
    return this.hub.addOutput(listener);
  }

  onExit(listener: ExitListener): () => void {
    const st = this.exitState;
    if (st !== null) {
      queueMicrotask(() => listener(st.code, st.signal, st.info));
      return () => undefined;
    }
    this.exits.add(listener);
    return () => this.exits.delete(listener);
  }
}
