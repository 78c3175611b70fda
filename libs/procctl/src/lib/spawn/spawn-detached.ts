import { EventEmitter } from 'node:events';
import * as os from 'node:os';
import * as path from 'node:path';
import { Socket } from 'node:net';
import { nativeAddon } from '../addon/native-addon';
import { ProcctlError } from '../errors/procctl-error';
import { buildEnvBlock } from '../exec/execve';

/** What `spawnDetached` starts: an absolute file, its argv (argv[0] included), the whole environment, a cwd. */
export interface DetachedSpawnSpec {
  readonly file: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * A child started by `spawnDetached`: the shape of a Node `ChildProcess` the runners use (pid, its output, one
 * `exit` event with `(code, signal)`, `signal` a name like `SIGKILL`). The child's stdout and stderr are one pipe
 * (`stdout`, in the order the child wrote them); `stderr` is always null.
 */
export interface DetachedChild extends EventEmitter {
  readonly pid: number;
  /** The child's fd 1 and fd 2. */
  readonly stdout: Socket;
  readonly stderr: null;
  /** Set once the exit was seen. */
  exitCode: number | null;
  signalCode: NodeJS.Signals | null;
}

/** The failure of a spawn: `syscall_failed` with the errno name (`ENOENT`, `EACCES` …) in `errno`. */
export class SpawnFailedError extends ProcctlError {
  readonly errno: string;
  constructor(errno: string) {
    super('syscall_failed', `posix_spawn failed: ${errno}`);
    this.errno = errno;
  }
}

let live = 0;

/**
 * Spawns waiting in libuv's thread pool at once. The pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) also
 * runs every fs/promises call, DNS lookup and zlib job of the process; a spawn holds its thread until the child's
 * exec (7–40 ms on a loaded box), so a launch of many agents could otherwise take the whole pool: the others wait here.
 */
export const SPAWNS_IN_POOL = 2;
let inPool = 0;
const poolWaiters: Array<() => void> = [];

async function poolSlot(): Promise<() => void> {
  if (inPool < SPAWNS_IN_POOL) inPool += 1;
  else await new Promise<void>((resolve) => poolWaiters.push(resolve)); // the slot is handed over
  return () => {
    const next = poolWaiters.shift();
    if (next !== undefined) next();
    else inPool -= 1;
  };
}

function errnoName(rc: number): string {
  return Object.entries(os.constants.errno).find(([, n]) => n === -rc)?.[0] ?? `errno ${-rc}`;
}

function signalName(sig: number): NodeJS.Signals | null {
  if (sig === 0) return null;
  return (Object.entries(os.constants.signals).find(([, n]) => n === sig)?.[0] as NodeJS.Signals | undefined) ?? null;
}

/**
 * Starts `spec.file` in a new session (as `spawn(…, {detached: true})`), stdin `/dev/null`, stdout and stderr on
 * one pipe, **without blocking the main thread**: `posix_spawn` (no copy of this process's page tables) runs on a
 * thread-pool thread, so the wait for the child's exec — 10–35 ms on a loaded box for Node's fork-based spawn, all
 * of it on the main thread — happens off it. While it runs the child costs this process **one descriptor**, the
 * pipe's read end: the addon's reaper thread reaps it with `waitid` on its pid alone (never `waitpid(-1)`, which
 * would take libuv's children) when the pipe ends, when a SIGCHLD arrives (a descendant may keep the pipe open),
 * or through a pidfd opened once the pipe ended while the child still runs. The `exit` event follows on the main
 * thread once the output ended (the last lines come first; at most `EXIT_OUTPUT_GRACE_MS` later if a descendant
 * keeps the pipe open); until then the child keeps the event loop alive. At most `SPAWNS_IN_POOL` spawns hold a
 * thread-pool thread at once (the rest of the process needs the pool too). Rejects `SpawnFailedError` (the exec
 * failed: ENOENT, EACCES …), `invalid_argument`, or `addon_missing`.
 */
export async function spawnDetached(spec: DetachedSpawnSpec): Promise<DetachedChild> {
  if (!path.isAbsolute(spec.file) || !path.isAbsolute(spec.cwd))
    throw new ProcctlError('invalid_argument', 'spawnDetached needs an absolute file and cwd');
  if ([spec.file, spec.cwd, ...spec.argv].some((w) => w.includes('\0')))
    throw new ProcctlError('invalid_argument', 'spawnDetached argument contains NUL');
  const addon = nativeAddon();
  const envBlock = buildEnvBlock(spec.env);
  // `early`: an exit reported before the promise's continuation ran
  const seen: { child?: DetachedChild; early?: [number, number]; exited?: true } = {};
  const onExit = (_pid: number, code: number, sig: number): void => {
    live -= 1;
    seen.exited = true;
    if (seen.child === undefined) return void (seen.early = [code, sig]);
    finish(seen.child, code, sig);
  };
  const release = await poolSlot();
  let triple: number[];
  try {
    const started = addon.spawnDetached(spec.file, [...spec.argv], envBlock, spec.cwd, onExit);
    if (typeof started === 'number') throw new ProcctlError('invalid_argument', 'spawnDetached refused its arguments');
    triple = await started.catch((rc: unknown) => {
      throw new SpawnFailedError(errnoName(typeof rc === 'number' ? rc : -5));
    });
  } finally {
    release();
  }
  live += 1;
  const [pid, outFd, id] = triple as [number, number, number];
  const child = Object.assign(new EventEmitter(), {
    pid,
    stdout: new Socket({ fd: outFd, readable: true, writable: false }),
    stderr: null,
    exitCode: null,
    signalCode: null,
  }) as DetachedChild;
  seen.child = child;
  // The pipe's end usually means the exit: the reaper looks at once (no descriptor per child while it runs).
  let asked = false;
  const onOutputEnd = (): void => {
    if (seen.exited !== true && !asked) addon.outputEnded(id);
    asked = true;
  };
  child.stdout.once('end', onOutputEnd);
  child.stdout.once('close', onOutputEnd);
  if (seen.early !== undefined) {
    const [code, sig] = seen.early;
    setImmediate(() => finish(child, code, sig)); // after the caller attached its listeners
  }
  return child;
}

/**
 * How long an exit waits for the child's output to reach its end. The reaper may report an exit (SIGCHLD, pidfd)
 * before the main thread read the output the child wrote last; the exit is emitted once the pipe ended (the child
 * and anything that inherited it closed it), or after this long if a descendant still holds it.
 */
export const EXIT_OUTPUT_GRACE_MS = 1000;

function ended(stream: Socket): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
  });
}

function finish(child: DetachedChild, code: number, sig: number): void {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_OUTPUT_GRACE_MS)));
  void Promise.race([ended(child.stdout), grace]).then(() => {
    clearTimeout(timer);
    child.exitCode = code < 0 ? null : code;
    child.signalCode = signalName(sig);
    child.emit('exit', child.exitCode, child.signalCode);
  });
}

/** Children started by `spawnDetached` whose exit was not yet seen (diagnostics and tests). */
export function liveDetachedChildren(): number {
  return live;
}
