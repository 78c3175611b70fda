import type { ChildProcess } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import type { OutputStream, RunnerHandle, SessionDescription, SessionHealth, TurnDelivery } from '../port';
import { RunnerError } from '../errors/runner-error';
import { killProcessTree, STOP_GRACE_MS } from './process-tree';
import { LineBuffer, OutputHub } from './output-hub';

export interface ChildHandleOptions {
  readonly description: SessionDescription;
  /** Cleanup after the tree is gone (env file, forwarder, manifests). Runs once. */
  readonly cleanup?: () => Promise<void>;
  /** TUI runners paste the turn; headless runners do nothing (the engine wrote the inbox file). */
  readonly deliver?: (turn: TurnDelivery) => Promise<void>;
}

/** Resolve once the child has spawned; reject `start_failed` if it could not (ENOENT, EACCES…). */
export function waitSpawned(child: ChildProcess, agent: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => {
      child.off('spawn', onSpawn);
      reject(
        new RunnerError('start_failed', `client could not be started: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, {
          agent,
          cause: err,
        }),
      );
    };
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    child.once('error', onError);
    child.once('spawn', onSpawn);
  });
}

/**
 * Output lines handed on per turn of the event loop. libuv reads a pipe up to 32 times per wake-up, so a client
 * flooding its output (100 MB of lines) held the server's loop ~0.4 s at a time (API p99 345 ms): the
 * stream is paused while a chunk's lines are handed on, at most this many per turn, and the pipe fills meanwhile
 * (the client waits, not the server).
 */
export const OUTPUT_LINES_PER_TICK = 256;

/** What attachChild reads of a started client: a Node ChildProcess or a procctl DetachedChild (spawn-client.ts). */
export type SpawnedChild = EventEmitter & {
  readonly pid?: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
};

/** A RunnerHandle over a spawned, detached (own process group) child with piped stdout/stderr. */
export function attachChild(child: SpawnedChild, opts: ChildHandleOptions): RunnerHandle & { lastLines(): readonly string[] } {
  const hub = new OutputHub();
  const buffers: Record<OutputStream, LineBuffer> = { stdout: new LineBuffer(), stderr: new LineBuffer() };
  let handing = 0; // chunks whose lines are still being handed on (the exit waits for them: order is kept)
  for (const stream of ['stdout', 'stderr'] as const) {
    const source = child[stream];
    source?.setEncoding('utf8');
    source?.on('data', (chunk: string) => {
      const lines = buffers[stream].push(chunk);
      source.pause();
      handing += 1;
      const handOn = (from: number): void => {
        const end = Math.min(lines.length, from + OUTPUT_LINES_PER_TICK);
        for (let i = from; i < end; i++) hub.emitLine(stream, lines[i] as string);
        if (end < lines.length) return void setImmediate(() => handOn(end));
        handing -= 1;
        setImmediate(() => source.resume());
      };
      handOn(0);
    });
  }
  child.on('error', () => undefined); // post-spawn errors (e.g. kill on a dead pid) surface through exit
  child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
    const finish = (): void => {
      if (handing > 0) return void setImmediate(finish);
      for (const stream of ['stdout', 'stderr'] as const) {
        const rest = buffers[stream].flush();
        if (rest !== undefined) hub.emitLine(stream, rest);
      }
      hub.emitExit(code, signal);
    };
    // Node's `exit` may come before the pipes were read to their end (procctl's never does): the last lines are
    // waited for, at most OUTPUT_END_GRACE_MS when a descendant keeps a pipe open
    void outputEnded([child.stdout, child.stderr]).then(finish);
  });
  return makeHandle(hub, opts, child.pid);
}

/** How long an exit waits for the client's pipes to end (a descendant may hold them open). */
export const OUTPUT_END_GRACE_MS = 1000;

function outputEnded(streams: readonly (Readable | null)[]): Promise<void> {
  const open = streams.filter((s): s is Readable => s !== null && !s.readableEnded && !s.destroyed);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = open.length;
    const timer = setTimeout(resolve, OUTPUT_END_GRACE_MS);
    const one = (): void => {
      left -= 1;
      if (left > 0) return;
      clearTimeout(timer);
      resolve();
    };
    for (const s of open) {
      let counted = false;
      const once = (): void => {
        if (counted) return;
        counted = true;
        one();
      };
      s.once('end', once);
      s.once('close', once);
    }
  });
}

/** Shared handle logic over an OutputHub (also used by the pty handle). */
export function makeHandle(
  hub: OutputHub,
  opts: ChildHandleOptions,
  pid: number | undefined,
): RunnerHandle & { lastLines(): readonly string[] } {
  let stopping: Promise<void> | undefined;
  const stop = async (graceMs: number): Promise<void> => {
    if (!hub.exited && pid !== undefined) await killProcessTree(pid, graceMs);
    await hub.exitedPromise;
    if (opts.cleanup !== undefined) await opts.cleanup();
  };
  return {
    describe: () => opts.description,
    deliver: async (turn) => {
      if (hub.exited) throw new RunnerError('runner_error', 'the client has exited');
      if (opts.deliver !== undefined) await opts.deliver(turn);
    },
    stop: (stopOpts) => {
      stopping ??= stop(stopOpts?.graceMs ?? STOP_GRACE_MS);
      return stopping;
    },
    health: (): Promise<SessionHealth> => Promise.resolve(hub.exited ? 'exited' : 'running'),
    onOutput: (listener) => hub.addOutput(listener),
    onExit: (listener) => hub.addExit(listener),
    lastLines: () => hub.lastLines(),
  };
}
