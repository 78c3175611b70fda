// eslint-disable-next-line no-restricted-imports -- genswarms-agent runs a coding client per turn (docs/agent.md); argv only, no shell
import { spawn, type ChildProcess } from 'node:child_process';

/** How long a client may keep running once its turn has a done.json (its own receipt, or the host ended the turn). */
export const DONE_GRACE_MS = 5_000;
/** Between SIGTERM to the client's process group and SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** done.json poll while the client runs. */
export const DONE_POLL_MS = 250;
/** stdout kept as the answer (bytes); the rest is read and dropped. */
export const CLIENT_STDOUT_MAX_BYTES = 1024 * 1024;
/** stderr lines logged per turn, each cut to CLIENT_LOG_LINE_MAX_CHARS. */
export const CLIENT_LOG_LINES_MAX = 200;
export const CLIENT_LOG_LINE_MAX_CHARS = 400;

export interface ClientRunRequest {
  readonly argv: readonly [string, ...string[]];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** True once the turn has a done.json: the client gets DONE_GRACE_MS more, then its group is killed. */
  readonly isDone: () => Promise<boolean>;
  /** Epoch ms after which the client is killed (the host's turn timeout); undefined = none of ours. */
  readonly deadlineMs?: number;
  readonly log: (line: string) => void;
}

export type ClientRunResult =
  | { kind: 'exited'; code: number | null; signal: string | null; stdout: string; lastError: string }
  | { kind: 'aborted' }
  | { kind: 'timed_out' }
  | { kind: 'spawn_failed'; reason: string };

/**
 * Runs the client once: argv only (no shell), exactly `env`, stdin closed, its own process group (so the
 * whole tree is killed: on abort, on the deadline, after a done.json plus grace, and after it exits).
 */
export function runClient(req: ClientRunRequest): Promise<ClientRunResult> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(req.argv[0], req.argv.slice(1), {
        cwd: req.cwd,
        env: { ...req.env },
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ kind: 'spawn_failed', reason: error instanceof Error ? error.message : 'spawn failed' });
      return;
    }
    const out = collectStdout(child);
    const errors = logStderr(child, req.log);
    let ending: 'aborted' | 'timed_out' | undefined;
    const stopGroup = (why: 'aborted' | 'timed_out' | 'done'): void => {
      if (why !== 'done') ending ??= why;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const onAbort = (): void => stopGroup('aborted');
    req.signal.addEventListener('abort', onAbort, { once: true });
    const deadline =
      req.deadlineMs === undefined ? undefined : setTimeout(() => stopGroup('timed_out'), Math.max(0, req.deadlineMs - Date.now()));
    const watch = watchDone(req.isDone, () => stopGroup('done'));
    let settled = false;
    child.once('error', (error) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve({ kind: 'spawn_failed', reason: (error as NodeJS.ErrnoException).code ?? error.message });
    });
    const finish = (code: number | null, signal: string | null): void => {
      if (settled) return;
      settled = true;
      cleanup();
      if (ending !== undefined) resolve({ kind: ending });
      else resolve({ kind: 'exited', code, signal, stdout: out.text(), lastError: errors.last() });
    };
    child.once('exit', (code, signal) => {
      killGroup(child, 'SIGKILL'); // whatever the client left running in its group (it may hold the pipes open)
      // the rest of the output arrives with 'close'; a process that left the group could hold a pipe forever
      setTimeout(() => finish(code, signal), KILL_GRACE_MS).unref();
    });
    child.once('close', (code, signal) => finish(code, signal));
    function cleanup(): void {
      req.signal.removeEventListener('abort', onAbort);
      if (deadline !== undefined) clearTimeout(deadline);
      watch.stop();
    }
    if (req.signal.aborted) onAbort();
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // expected: the group is already gone
  }
}

/** Polls isDone; once true, waits DONE_GRACE_MS and calls onDone. */
function watchDone(isDone: () => Promise<boolean>, onDone: () => void): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    if (stopped) return;
    let done = false;
    try {
      done = await isDone();
    } catch {
      // expected: an unreadable turn dir is checked again on the next tick
    }
    if (stopped) return;
    timer = done ? setTimeout(onDone, DONE_GRACE_MS) : setTimeout(() => void tick(), DONE_POLL_MS);
  };
  timer = setTimeout(() => void tick(), DONE_POLL_MS);
  return {
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

function collectStdout(child: ChildProcess): { text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (size >= CLIENT_STDOUT_MAX_BYTES) return;
    chunks.push(chunk.subarray(0, CLIENT_STDOUT_MAX_BYTES - size));
    size += chunk.length;
  });
  return { text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Terminal escapes (CSI sequences) and control characters: the client's bytes reach a log as plain text. */
// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const ANSI_CSI_RE = /\u001b\[[0-9;?]*[A-Za-z]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE = /[\u0000-\u001f\u007f]/g;

/** Each stderr line to the agent's log (control characters dropped, bounded); keeps the last non-empty one. */
function logStderr(child: ChildProcess, log: (line: string) => void): { last(): string } {
  let pending = '';
  let logged = 0;
  let last = '';
  const emit = (raw: string): void => {
    const line = raw.replace(ANSI_CSI_RE, '').replace(CONTROL_RE, '').slice(0, CLIENT_LOG_LINE_MAX_CHARS);
    if (line.trim() === '') return;
    last = line;
    if (logged < CLIENT_LOG_LINES_MAX) log(`client: ${line}`);
    else if (logged === CLIENT_LOG_LINES_MAX) log(`client: (more output not logged)`);
    logged += 1;
  };
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = (lines.pop() ?? '').slice(-CLIENT_LOG_LINE_MAX_CHARS * 4);
    for (const line of lines) emit(line);
  });
  child.stderr?.on('end', () => {
    if (pending !== '') emit(pending);
  });
  return { last: () => last };
}
