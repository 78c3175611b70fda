import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { NO_UTMP_CHILD_FD, NO_UTMP_PRELOAD } from '@genswarms/procctl';
import { RunnerError } from '../errors/runner-error';
import { ControlParser, type ControlBlock } from './control-protocol';
import { buildTmuxCommand, tmuxConsts, tmuxFormat, type TmuxWord } from './tmux-words';

/** A command that gets no reply in this time is rejected (its late reply is still consumed in order). */
export const TMUX_COMMAND_TIMEOUT_MS = 15_000;
/** Output of a pane nobody listens to yet is kept (bounded) until a listener subscribes. */
const BACKLOG_MAX_BYTES = 64 * 1024;
const BACKLOG_MAX_PANES = 256;
/** Bytes of the control client's stderr kept for diagnostics. */
const STDERR_KEEP_BYTES = 4096;

/** Environment of the control client, hence of a tmux server it starts: nothing secret. */
export const TMUX_CLIENT_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  TERM: 'xterm-256color',
  LANG: 'C.UTF-8',
});

export interface TmuxControlClientOptions {
  /** Absolute path of the tmux binary. */
  readonly tmux: string;
  /** Absolute path of the server socket (`-S`). */
  readonly socket: string;
  /** Argv words run by the client before it reads commands (must end by attaching a session). */
  readonly initial: readonly string[];
  readonly commandTimeoutMs?: number;
  /**
   * An open descriptor of a shared library preloaded into the client, hence into a tmux server it starts (the
   * no-utmp shim, `openNoUtmpLibrary` of `@genswarms/procctl`): the client inherits it as NO_UTMP_CHILD_FD and
   * LD_PRELOAD names that descriptor, never a path. The caller closes its own copy once `start` settled. The
   * server's initial commands remove LD_PRELOAD from the environment panes get, and tmux closes every
   * descriptor above stderr in a pane.
   */
  readonly preloadFd?: number;
}

interface Pending {
  readonly resolve: (lines: readonly string[]) => void;
  readonly reject: (error: Error) => void;
  readonly verb: string;
  settled: boolean;
  timer?: NodeJS.Timeout;
}

type OutputListener = (data: Buffer) => void;

/**
 * One `tmux -C` client per orchestrator: commands are queued and each resolves with its own
 * `%begin/%end` block (tmux answers a client's commands in order); `%output` goes to pane listeners.
 */
export class TmuxControlClient {
  private readonly queue: Pending[] = [];
  private readonly outputs = new Map<string, Set<OutputListener>>();
  private readonly backlog = new Map<string, { chunks: Buffer[]; bytes: number }>();
  private readonly notifications = new Set<(name: string, args: string) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private stderr = '';
  private closed = false;
  private closedReason = '';
  private readonly exited: Promise<void>;
  /** The tmux server's pid (answered by the client's first command), if tmux reported a sane one. */
  serverPid: number | undefined;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly timeoutMs: number,
  ) {
    const parser = new ControlParser({
      block: (block) => this.onBlock(block),
      output: (paneId, data) => this.dispatchOutput(paneId, data),
      notification: (name, args) => this.notifications.forEach((l) => l(name, args)),
      exit: (reason) => this.shutdown(`tmux control client exited${reason === '' ? '' : `: ${reason}`}`),
    });
    child.stdout.on('data', (chunk: Buffer) => parser.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEEP_BYTES);
    });
    child.stdin.on('error', () => this.shutdown('tmux control client stdin closed'));
    this.exited = new Promise((resolve) => {
      child.on('error', (err) => {
        this.shutdown(`tmux control client failed: ${err.message}`);
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.shutdown(`tmux control client exited (${code ?? signal ?? 'unknown'})${this.stderrNote()}`);
        resolve();
      });
    });
  }

  /** Spawns the client (argv only, minimal env) and waits until it answers a first command. */
  static async start(opts: TmuxControlClientOptions): Promise<TmuxControlClient> {
    const preload = opts.preloadFd;
    const stdio: ('pipe' | number)[] = ['pipe', 'pipe', 'pipe'];
    if (preload !== undefined) stdio[NO_UTMP_CHILD_FD] = preload;
    // with a fourth stdio entry node types the child's streams as nullable; the first three are pipes all the same
    const child = spawn(opts.tmux, ['-S', opts.socket, '-f', '/dev/null', '-C', ...opts.initial], {
      shell: false,
      stdio,
      env: preload === undefined ? { ...TMUX_CLIENT_ENV } : { ...TMUX_CLIENT_ENV, LD_PRELOAD: NO_UTMP_PRELOAD },
      cwd: '/',
    }) as ChildProcessWithoutNullStreams;
    const client = new TmuxControlClient(child, opts.commandTimeoutMs ?? TMUX_COMMAND_TIMEOUT_MS);
    try {
      const pid = Number((await client.command([...tmuxConsts('display-message', '-p'), tmuxFormat('#{pid}')]))[0]);
      client.serverPid = Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
    } catch (err) {
      await client.close();
      const why = err instanceof Error ? ` (${err.message})` : '';
      throw new RunnerError('start_failed', `tmux control client did not start${why}${client.stderrNote()}`, { cause: err });
    }
    return client;
  }

  /** Pid of the `tmux -C` client process. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends one command; resolves with its output lines, rejects (`runner_error`) on `%error`. */
  command(words: readonly TmuxWord[]): Promise<readonly string[]> {
    const line = buildTmuxCommand(words);
    const verb = words[0]?.text ?? '';
    if (this.closed) return Promise.reject(new RunnerError('runner_error', this.closedReason));
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, verb, settled: false };
      pending.timer = setTimeout(() => this.settle(pending, new RunnerError('runner_error', `tmux ${verb}: no reply`)), this.timeoutMs);
      this.queue.push(pending);
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** Raw output bytes of one pane (only panes linked into the attached session are reported). */
  onPaneOutput(paneId: string, listener: OutputListener): () => void {
    let set = this.outputs.get(paneId);
    if (set === undefined) {
      set = new Set();
      this.outputs.set(paneId, set);
    }
    set.add(listener);
    const held = this.backlog.get(paneId);
    this.backlog.delete(paneId);
    held?.chunks.forEach((chunk) => listener(chunk));
    return () => {
      set.delete(listener);
      if (set.size === 0) this.outputs.delete(paneId);
    };
  }

  /** Drops output held for a pane nobody will listen to (e.g. after it was killed). */
  forgetPane(paneId: string): void {
    this.backlog.delete(paneId);
  }

  private dispatchOutput(paneId: string, data: Buffer): void {
    const listeners = this.outputs.get(paneId);
    if (listeners !== undefined) {
      listeners.forEach((l) => l(data));
      return;
    }
    // A pane's first bytes can arrive in the same read as the reply creating it, before a listener exists.
    let held = this.backlog.get(paneId);
    if (held === undefined) {
      if (this.backlog.size >= BACKLOG_MAX_PANES) return;
      held = { chunks: [], bytes: 0 };
      this.backlog.set(paneId, held);
    }
    if (held.bytes + data.length > BACKLOG_MAX_BYTES) return;
    held.chunks.push(data);
    held.bytes += data.length;
  }

  onNotification(listener: (name: string, args: string) => void): () => void {
    this.notifications.add(listener);
    return () => this.notifications.delete(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Detaches (closing stdin ends the client; the tmux server keeps running). */
  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      await this.exited;
      clearTimeout(timer);
    }
    this.shutdown('tmux control client closed');
  }

  private onBlock(block: ControlBlock): void {
    // Blocks with flag 0 answer the command-line commands given at start, not a queued command.
    if ((block.flags & 1) === 0) return;
    const pending = this.queue.shift();
    if (pending === undefined) return;
    if (block.ok) this.settle(pending, block.lines);
    else this.settle(pending, new RunnerError('runner_error', `tmux ${pending.verb}: ${block.lines.join(' ').slice(0, 500)}`));
  }

  private settle(pending: Pending, result: readonly string[] | Error): void {
    if (pending.settled) return;
    pending.settled = true;
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (result instanceof Error) pending.reject(result);
    else pending.resolve(result);
  }

  private shutdown(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closedReason = reason;
    for (const pending of this.queue.splice(0)) this.settle(pending, new RunnerError('runner_error', reason));
    this.closeListeners.forEach((l) => l(reason));
  }

  private stderrNote(): string {
    const text = this.stderr.trim();
    return text === '' ? '' : `: ${text.slice(0, 500)}`;
  }
}
