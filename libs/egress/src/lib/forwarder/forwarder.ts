import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { EgressError } from '../errors/egress-error';
import type { EgressTarget } from '../plan/target';
import { EGRESS_SOCKET_NAME } from '../plan/target';
import type { EgressMeter } from '../relay/meter';
import type { RelayTimeouts } from '../relay/relay-limits';
import type { RelayServer } from '../relay/relay-server';
import { assertSafeSocketPath, buildHostSocatArgs, type SocketClient } from '../socat/socat-args';
import { startMeteredRelay, upstreamSocketPath } from './metered';
import type { FileIdentity } from './private-dir';
import { ensureEgressDir, identityOf, isSocket, releaseEgressDir, releaseSocket, removeEgressDir, removeStaleSocket } from './private-dir';

/** How long socat may take to create its listening socket. */
export const FORWARDER_READY_TIMEOUT_MS = 5000;
const STDERR_MAX_BYTES = 4096;
/**
 * socat's notice once it called listen() (`-d -d`). The socket file appears at bind(), earlier: a connection
 * between the two is refused (measured here: 5 in 200 connects made as soon as the file existed), which the
 * relay, connecting at the first call, reported as an unreachable LLM.
 */
const LISTENING_NOTICE = / N listening on AF=1 /;

/**
 * A running host-side forwarder: one socat (and its per-connection forks) in its own process group, and —
 * when metered — the relay in this process on the agent's socket, in front of socat's private one.
 */
export interface Forwarder {
  readonly dir: string;
  readonly socketPath: string;
  readonly pid: number;
  /** Kills the process group, removes the socket (if still ours) and the directory (if then empty). Idempotent. */
  stop(): Promise<void>;
  /**
   * Calls `listener` once if socat ends before `stop()` was called (killed, crashed): the agent has lost
   * its only route to the LLM. `detail` is socat's exit and the first line of its stderr (no secrets: socat
   * never sees a key). Optional so that fakes may omit it.
   */
  onUnexpectedExit?(listener: (detail: string) => void): void;
}

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  /** Resolves once socat said it listens (LISTENING_NOTICE). */
  readonly listening: Promise<void>;
  stderr(): string;
}

function launch(socat: string, args: readonly string[]): Running {
  // Own process group (detached) so stop() also reaches the per-connection forks. Empty env: socat needs none.
  const child = spawn(socat, args, { shell: false, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
  // `-d -d` also logs every connection: only the last STDERR_MAX_BYTES are kept (a late error is what matters)
  let err = '';
  let listening = false;
  const heard: Array<() => void> = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-STDERR_MAX_BYTES);
    if (!listening && LISTENING_NOTICE.test(err)) {
      listening = true;
      for (const resolve of heard.splice(0)) resolve();
    }
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const listeningNow = new Promise<void>((resolve) => (listening ? resolve() : heard.push(resolve)));
  return { child, exited, listening: listeningNow, stderr: () => err.trim() };
}

/** socat's last error or fatal line (`E`/`F`; its notices name paths and say nothing of a failure), else ''. */
function lastProblem(stderr: string): string {
  return (
    stderr
      .split('\n')
      .reverse()
      .find((l) => / [EF] /.test(l)) ?? ''
  );
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // best-effort: ESRCH, the group is already gone
  }
}

/**
 * SIGKILL, not SIGTERM: on SIGTERM socat unlinks its listening path on the way out, which could be a
 * successor's socket by then. socat holds no state worth a graceful exit; we remove our socket ourselves.
 */
async function terminate(run: Running): Promise<void> {
  const pid = run.child.pid;
  if (pid === undefined) return;
  killGroup(pid, 'SIGKILL'); // the parent and every per-connection fork
  if (run.child.exitCode === null && run.child.signalCode === null) await run.exited;
}

/** Until socat listens on `socketPath` (its notice, and the socket is there), it exits, or the timeout. */
async function waitForSocket(run: Running, socketPath: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    run.listening.then(() => 'listening' as const),
    run.exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), FORWARDER_READY_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (outcome === 'exited')
    throw new EgressError('forwarder_failed', `socat exited before listening: ${lastProblem(run.stderr()) || 'no output'}`);
  if (outcome === 'timeout' || !(await isSocket(socketPath)))
    throw new EgressError('forwarder_failed', 'socat did not create the egress socket in time');
}

export interface ForwarderOptions {
  readonly socat: string;
  readonly dir: string;
  readonly target: EgressTarget;
  /** Absolute: socat then runs under `setpriv --pdeathsig KILL`, so a crashed orchestrator leaves no forwarder behind. */
  readonly setpriv?: string;
  /** The uid:gid that connects (a root server's agent identity): the agent's socket is chowned to it, the directory 0710. */
  readonly client?: SocketClient;
  /**
   * Meter every call (budgets, rate limits, usage, audit): the relay listens on `llm.sock` and socat, pinned as
   * ever, listens on a private socket beside the directory (`<dir>.up.sock`, never bound into a sandbox).
   */
  readonly meter?: EgressMeter;
  /** The relay's timeouts (tests shorten them). */
  readonly relayTimeouts?: Partial<RelayTimeouts>;
}

/**
 * Starts the host side of docs/security.md: `<dir>` 0700, stale sockets removed, one socat (argv only,
 * empty env) connecting to the pinned target, listening on `<dir>/llm.sock` — or, metered, on its private
 * socket behind the relay. Resolves once socat listens (its `-d -d` notice: the socket file exists from bind(), before listen()) and the relay is up; on any failure nothing is left behind
 * (relay closed, process killed, sockets and directory removed).
 */
export async function startForwarder(opts: ForwarderOptions): Promise<Forwarder> {
  if (!isAbsolute(opts.socat)) throw new EgressError('egress_unavailable', 'socat path must be absolute');
  if (opts.setpriv !== undefined && !isAbsolute(opts.setpriv)) throw new EgressError('egress_unavailable', 'setpriv path must be absolute');
  const socketPath = join(opts.dir, EGRESS_SOCKET_NAME);
  const upstreamPath = opts.meter === undefined ? undefined : upstreamSocketPath(opts.dir);
  assertSafeSocketPath(socketPath);
  // validates before anything is created; metered, socat's socket is the server's own (no client chown)
  const args = buildHostSocatArgs(upstreamPath ?? socketPath, opts.target, upstreamPath === undefined ? opts.client : undefined);
  await ensureEgressDir(opts.dir, opts.client?.gid);
  let run: Running | undefined;
  let relay: RelayServer | undefined;
  try {
    await removeStaleSocket(socketPath);
    if (upstreamPath !== undefined) await removeStaleSocket(upstreamPath);
    const argv = ['-d', '-d', ...args]; // notices: waitForSocket needs socat's "listening"
    run = opts.setpriv === undefined ? launch(opts.socat, argv) : launch(opts.setpriv, ['--pdeathsig', 'KILL', '--', opts.socat, ...argv]);
    await waitForSocket(run, upstreamPath ?? socketPath);
    if (upstreamPath !== undefined && opts.meter !== undefined)
      relay = await startMeteredRelay({ ...opts, meter: opts.meter, socketPath, upstreamPath });
  } catch (err) {
    await relay?.close();
    if (run !== undefined) await terminate(run);
    if (upstreamPath !== undefined) await releaseSocket(upstreamPath, undefined);
    await removeEgressDir(opts.dir);
    if (err instanceof EgressError) throw err;
    throw new EgressError('forwarder_failed', 'the egress forwarder could not start', { cause: err });
  }
  const sockets = {
    agent: socketPath,
    agentId: await identityOf(socketPath),
    upstream: upstreamPath,
    upstreamId: upstreamPath === undefined ? undefined : await identityOf(upstreamPath),
  };
  return makeForwarder(opts.dir, sockets, run, relay);
}

interface ForwarderSockets {
  readonly agent: string;
  readonly agentId: FileIdentity | undefined;
  readonly upstream: string | undefined;
  readonly upstreamId: FileIdentity | undefined;
}

function makeForwarder(dir: string, sockets: ForwarderSockets, run: Running, relay: RelayServer | undefined): Forwarder {
  let stopping: Promise<void> | undefined;
  const listeners: Array<(detail: string) => void> = [];
  void run.exited.then(() => {
    if (stopping !== undefined) return;
    const how = run.child.signalCode !== null ? `killed by ${run.child.signalCode}` : `exited with code ${String(run.child.exitCode)}`;
    const problem = lastProblem(run.stderr());
    const detail = `socat ${how}${problem === '' ? '' : `: ${problem}`}`;
    for (const l of listeners.splice(0)) l(detail);
  });
  const stopAll = async (): Promise<void> => {
    await relay?.close();
    await terminate(run);
    if (sockets.upstream !== undefined) await releaseSocket(sockets.upstream, sockets.upstreamId);
    await releaseEgressDir(dir, sockets.agent, sockets.agentId);
  };
  return {
    dir,
    socketPath: sockets.agent,
    pid: run.child.pid ?? -1,
    stop(): Promise<void> {
      stopping ??= stopAll();
      return stopping;
    },
    onUnexpectedExit(listener: (detail: string) => void): void {
      listeners.push(listener);
    },
  };
}
