/**
 * The RunnerHandle of one remote agent. The run channel reports the exit; when the connection drops, the pool
 * reconnects (bounded) and `genswarms-ssh-ctl wait` takes over; if it cannot, the session ends with
 * `ssh_disconnected` — a turn never hangs on a dead link.
 */
import * as path from 'node:path';
import type { ClientChannel } from 'ssh2';
import type { TurnReceipt } from '@genswarms/receipts';
import type { OutputStream, RunnerHandle, SessionDescription, SessionHealth, TurnDelivery } from '../port';
import { RunnerError } from '../errors/runner-error';
import { ctlCommand, type RemoteLayout } from './remote-layout';
import type { RemoteLeader } from './remote-leader';
import { removeLaunchFiles } from './remote-setup';
import { prepareRemoteTurnDir, pullOutbox, pushInbox, readRemoteReceipt, type RemoteWorkspace } from './remote-workspace';
import type { SshConnection } from './ssh-connection';
import { tailRemoteLog } from './remote-log-tail';
import type { PushWake } from '../remote/receipt-push';
import { ReceiptWatch, type WatcherStream } from '../remote/receipt-watch';

/** Receipt poll interval over SFTP (ms) without a live receipt watcher (none, or it died). */
export const SSH_RECEIPT_POLL_MS = 250;
/** The fallback poll while the remote receipt watcher is live (its pushes wake the handle at once). */
export const SSH_RECEIPT_PUSH_POLL_MS = 1000;

/** A malformed done.json is final only when still malformed this long after it was first seen (docs/receipts.md). */
export const SSH_MALFORMED_SETTLE_MS = 500;
/** Tries to hand a turn over (each after a reconnect through the pool) before it fails as `ssh_disconnected`. */
export const SSH_DELIVER_ATTEMPTS = 3;
/** Consecutive failed polls (each a reconnect through the pool) before the turn fails as `ssh_disconnected`. */
export const SSH_POLL_FAILURES_MAX = 8;
/** `genswarms-ssh-ctl wait` exit status meaning "no exit status recorded" (killed). */
const CTL_UNKNOWN_EXIT = 200;

type FinalReceipt = Exclude<TurnReceipt, { kind: 'pending' }>;
/** What the session learned about an exit; `ssh_disconnected` when the link (not the client) ended it. */
export interface SshExitInfo {
  readonly reason?: 'ssh_disconnected';
}
type ExitListener = (code: number | null, signal: string | null, info?: SshExitInfo) => void;

export interface SshSessionDeps {
  readonly description: SessionDescription;
  readonly layout: RemoteLayout;
  readonly workspace: RemoteWorkspace;
  /** The live connection (reconnecting, bounded); rejects when the host stays unreachable. */
  readonly connect: () => Promise<SshConnection>;
  /** Told about outbox files refused remotely (a link, FIFO, oversize…): the caller records them. */
  readonly onOutboxRefused?: (names: readonly string[]) => void;
  /** The remote receipt watcher's command line (remote-layout `watchCommand`); absent = poll only. */
  readonly watchCommand?: string;
  /** The fallback poll while the watcher is live (default SSH_RECEIPT_PUSH_POLL_MS). */
  readonly pushPollMs?: number | undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function abortError(signal: AbortSignal): Error {
  const e = new Error('aborted', { cause: signal.reason });
  Object.defineProperty(e, 'name', { value: 'AbortError' });
  return e;
}

export class SshSession implements RunnerHandle {
  private readonly exits = new Set<ExitListener>();
  private exitState: { code: number | null; signal: string | null; info?: SshExitInfo } | null = null;
  private readonly sent = new Map<string, string>();
  private stopping: Promise<void> | null = null;
  private readonly outputs = new Set<(stream: OutputStream, line: string) => void>();
  private tail: { stop(): void } | null = null;
  private readonly receipts: ReceiptWatch;

  constructor(private readonly deps: SshSessionDeps) {
    const cmd = deps.watchCommand;
    this.receipts = new ReceiptWatch({
      pollMs: SSH_RECEIPT_POLL_MS,
      pushPollMs: deps.pushPollMs ?? SSH_RECEIPT_PUSH_POLL_MS,
      ...(cmd === undefined ? {} : { start: async () => channelStream(await (await deps.connect()).exec(cmd)) }),
    });
  }

  /** Starts the remote receipt watcher when none runs (bounded restarts); never rejects. */
  ensureWatcher(): Promise<void> {
    return this.receipts.ensure();
  }

  /** Called when the remote receipt watcher is lost (or could not start): turns fall back to the 250 ms poll. */
  onReceiptPushLost(listener: (detail: string) => void): void {
    this.receipts.onLost(listener);
  }

  /** Follows a channel whose exit is the agent's (the run channel, or `ctl wait` after a reconnect). */
  follow(channel: ClientChannel, viaCtl: boolean): void {
    let reported = false;
    channel.on('exit', (code: number | null, signal?: string) => {
      reported = true;
      if (viaCtl && code === CTL_UNKNOWN_EXIT) this.emitExit(null, 'SIGKILL');
      else this.emitExit(code ?? null, signal ?? null);
    });
    channel.on('close', () => {
      if (!reported && this.exitState === null) void this.reattachWatch();
    });
    channel.resume(); // the run script writes nothing; drain anyway so the window never fills
    channel.stderr.resume();
  }

  /** The remote group leader as this host recorded it when it started (or adopted) the client. */
  private get leader(): RemoteLeader {
    const r = this.deps.description.remote;
    if (r === undefined) throw new RunnerError('runner_error', 'an ssh session without its recorded remote process');
    return r;
  }

  private async reattachWatch(): Promise<void> {
    try {
      const conn = await this.deps.connect();
      this.follow(await conn.exec(ctlCommand(this.deps.layout, 'wait', this.leader)), true);
    } catch {
      // expected: the bounded reconnect gave up; the session ends as disconnected, never hangs
      this.emitExit(null, null, { reason: 'ssh_disconnected' });
    }
  }

  private emitExit(code: number | null, signal: string | null, info?: SshExitInfo): void {
    if (this.exitState !== null) return;
    this.exitState = { code, signal, ...(info === undefined ? {} : { info }) };
    this.tail?.stop();
    this.receipts.close();
    for (const l of [...this.exits]) l(code, signal, info);
  }

  describe(): SessionDescription {
    return this.deps.description;
  }

  async deliver(turn: TurnDelivery): Promise<void> {
    if (this.exitState !== null) throw new RunnerError('runner_error', 'the client has exited');
    const once = async (): Promise<void> => {
      await prepareRemoteTurnDir(this.deps.workspace, turn.turnId);
      await this.ensureWatcher();
      this.receipts.watch(turn.turnId); // before the inbox goes up: the watcher is looking when the client answers
      await pushInbox(this.deps.workspace, this.sent);
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        await once();
        return;
      } catch (e) {
        if (isFinalLinkError(e))
          throw new RunnerError('ssh_disconnected', 'the ssh connection was lost while delivering the turn', { cause: e });
        if (e instanceof RunnerError) throw e;
        // a dropped link: retry through the pool's bounded reconnect (a few times: the close may not be seen yet)
        if (attempt >= SSH_DELIVER_ATTEMPTS)
          throw new RunnerError('ssh_disconnected', 'the ssh connection was lost while delivering the turn', { cause: e });
        await new Promise((r) => setTimeout(r, 200 * attempt));
        try {
          await this.deps.connect();
        } catch (c) {
          throw new RunnerError('ssh_disconnected', 'the ssh connection was lost while delivering the turn', { cause: c });
        }
      }
    }
  }

  async watchReceipt(turnId: string, opts: { readonly signal: AbortSignal }): Promise<FinalReceipt> {
    await this.ensureWatcher();
    this.receipts.watch(turnId);
    try {
      return await this.pollReceipt(turnId, opts.signal);
    } finally {
      this.receipts.unwatch(turnId);
    }
  }

  /** Reads the receipt at each wake: a push (read first, mailboxes after), outbox activity, or the fallback poll. */
  private async pollReceipt(turnId: string, signal: AbortSignal): Promise<FinalReceipt> {
    let malformedAt: number | null = null;
    let failures = 0;
    let wake: PushWake = 'timeout';
    for (;;) {
      if (signal.aborted) throw abortError(signal);
      const exitedBefore = this.exitState !== null; // polled once more after the exit: a receipt written last still counts
      let receipt: TurnReceipt;
      try {
        if (wake !== 'receipt') await this.syncMailboxes();
        receipt = await readRemoteReceipt(this.deps.workspace, turnId);
        if (wake === 'receipt' && receipt.kind === 'pending') {
          this.receipts.missed(turnId);
          await this.syncMailboxes();
        }
      } catch (e) {
        if (signal.aborted) throw abortError(signal);
        failures += 1;
        if (this.exitState?.info?.reason === 'ssh_disconnected' || isFinalLinkError(e) || failures > SSH_POLL_FAILURES_MAX) {
          throw new RunnerError('ssh_disconnected', 'the ssh connection was lost while the turn ran', { cause: e });
        }
        await sleep(SSH_RECEIPT_POLL_MS, signal); // a transient SFTP failure: the next poll reconnects through the pool
        wake = 'timeout';
        continue;
      }
      failures = 0;
      if (receipt.kind === 'refused' && receipt.reason === 'receipt_malformed') {
        malformedAt ??= Date.now();
        if (Date.now() - malformedAt >= SSH_MALFORMED_SETTLE_MS) return receipt;
      } else if (receipt.kind !== 'pending') {
        await this.syncMailboxes(); // the final outbox drain sees everything the client wrote before its receipt
        return receipt;
      } else {
        malformedAt = null;
        if (exitedBefore) throw new RunnerError('runner_error', 'the remote client exited without writing its receipt');
      }
      wake = await this.receipts.next(turnId, signal, malformedAt !== null);
    }
  }

  private async syncMailboxes(): Promise<void> {
    await pushInbox(this.deps.workspace, this.sent);
    const out = await pullOutbox(this.deps.workspace);
    if (out.refused.length > 0) this.deps.onOutboxRefused?.(out.refused);
  }

  /** The grace is the ctl script's fixed 5 s (SIGTERM, then SIGKILL to the group): `graceMs` is not sent over. */
  stop(_opts?: { readonly graceMs?: number }): Promise<void> {
    this.stopping ??= this.stopRemote();
    return this.stopping;
  }

  private async stopRemote(): Promise<void> {
    this.receipts.close();
    // After a lost link the remote client may still run (we only lost sight of it): signal it anyway.
    const mayRun = this.exitState === null || this.exitState.info?.reason === 'ssh_disconnected';
    try {
      const conn = await this.deps.connect();
      if (mayRun) {
        const ch = await conn.exec(ctlCommand(this.deps.layout, 'stop', this.leader));
        ch.resume();
        ch.stderr.resume();
        await new Promise<void>((resolve) => ch.on('close', () => resolve()));
      }
      // A client that exited by itself skips the ctl (and its removal): the env file may still hold the secrets
      // (a launcher that failed before reading it), so the launch files are removed over SFTP every time.
      await removeLaunchFiles(await conn.sftp(), this.deps.layout);
    } catch {
      // best-effort: an unreachable host cannot be told to stop; the session still ends here
    }
    this.emitExit(null, 'SIGTERM');
  }

  health(): Promise<SessionHealth> {
    return Promise.resolve(this.exitState === null ? 'running' : 'exited');
  }

  /** Lines of the remote client.log (stdout and stderr together, reported as stdout), polled once a second. */
  onOutput(listener: (stream: OutputStream, line: string) => void): () => void {
    this.outputs.add(listener);
    if (this.tail === null && this.exitState === null) {
      this.tail = tailRemoteLog(this.deps.workspace.sftp, path.posix.join(this.deps.layout.dir, 'client.log'), (line) => {
        for (const l of [...this.outputs]) l('stdout', line);
      });
    }
    return () => this.outputs.delete(listener);
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

/** The watcher's exec channel as a WatcherStream (stderr drained: a shell's "not found" is never kept). */
function channelStream(channel: ClientChannel): WatcherStream {
  channel.stderr.resume();
  let code: number | null = null;
  channel.on('exit', (c: number | null) => (code = c));
  return {
    write: (line) => {
      if (channel.writable) channel.write(line);
    },
    close: () => void channel.close(),
    onData: (l) => void channel.on('data', l),
    onEnd: (l) => {
      channel.on('close', () => l(`the receipt watcher exited (status ${String(code ?? 'none')})`));
      channel.on('error', (e: Error) => l(`the receipt watcher's channel failed (${e.message})`));
    },
  };
}

function isFinalLinkError(e: unknown): boolean {
  return e instanceof RunnerError && (e.code === 'ssh_unreachable' || e.code.startsWith('ssh_host_key') || e.code === 'ssh_auth_failed');
}
