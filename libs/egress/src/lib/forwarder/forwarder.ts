import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { EgressError } from '../errors/egress-error';
import type { EgressTarget } from '../plan/target';
import { EGRESS_SOCKET_NAME } from '../plan/target';
import { buildHostSocatArgs, type SocketClient } from '../socat/socat-args';
import type { FileIdentity } from './private-dir';
import { ensureEgressDir, identityOf, isSocket, releaseEgressDir, removeEgressDir, removeStaleSocket } from './private-dir';

/** How long socat may take to create its listening socket. */
export const FORWARDER_READY_TIMEOUT_MS = 5000;
const READY_POLL_MS = 20;
const STDERR_MAX_BYTES = 4096;

/** A running host-side forwarder: one socat (and its per-connection forks) in its own process group. */
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
  stderr(): string;
}

function launch(socat: string, args: readonly string[]): Running {
  // Own process group (detached) so stop() also reaches the per-connection forks. Empty env: socat needs none.
  const child = spawn(socat, args, { shell: false, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (err.length < STDERR_MAX_BYTES) err += chunk.toString('utf8').slice(0, STDERR_MAX_BYTES - err.length);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  return { child, exited, stderr: () => err.trim() };
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

async function waitForSocket(run: Running, socketPath: string): Promise<void> {
  let exited = false;
  void run.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + FORWARDER_READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await isSocket(socketPath)) return;
    if (exited) throw new EgressError('forwarder_failed', `socat exited before listening: ${run.stderr() || 'no output'}`);
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new EgressError('forwarder_failed', 'socat did not create the egress socket in time');
}

/**
 * Starts the host side of docs/security.md: `<dir>` 0700, stale `llm.sock` removed, one socat (argv only,
 * empty env) listening on `<dir>/llm.sock` and connecting to the pinned target. Resolves once the
 * socket exists; on any failure nothing is left behind (process killed, directory removed).
 */
/**
 * `setpriv` (optional, absolute): socat then runs under `setpriv --pdeathsig KILL`, so a crashed
 * orchestrator leaves no forwarder behind (its sandbox dies with it too). `client` (optional): the
 * uid:gid that connects (a root server's agent identity): the socket is chowned to it, the directory 0710.
 */
export async function startForwarder(opts: {
  socat: string;
  dir: string;
  target: EgressTarget;
  setpriv?: string;
  client?: SocketClient;
}): Promise<Forwarder> {
  if (!isAbsolute(opts.socat)) throw new EgressError('egress_unavailable', 'socat path must be absolute');
  if (opts.setpriv !== undefined && !isAbsolute(opts.setpriv)) throw new EgressError('egress_unavailable', 'setpriv path must be absolute');
  const socketPath = join(opts.dir, EGRESS_SOCKET_NAME);
  const args = buildHostSocatArgs(socketPath, opts.target, opts.client); // validates before anything is created
  await ensureEgressDir(opts.dir, opts.client?.gid);
  let run: Running | undefined;
  try {
    await removeStaleSocket(socketPath);
    run = opts.setpriv === undefined ? launch(opts.socat, args) : launch(opts.setpriv, ['--pdeathsig', 'KILL', '--', opts.socat, ...args]);
    await waitForSocket(run, socketPath);
  } catch (err) {
    if (run !== undefined) await terminate(run);
    await removeEgressDir(opts.dir);
    if (err instanceof EgressError) throw err;
    throw new EgressError('forwarder_failed', 'the egress forwarder could not start', { cause: err });
  }
  return makeForwarder(opts.dir, socketPath, run, await identityOf(socketPath));
}

function makeForwarder(dir: string, socketPath: string, run: Running, socketId: FileIdentity | undefined): Forwarder {
  let stopping: Promise<void> | undefined;
  const listeners: Array<(detail: string) => void> = [];
  void run.exited.then(() => {
    if (stopping !== undefined) return;
    const how = run.child.signalCode !== null ? `killed by ${run.child.signalCode}` : `exited with code ${String(run.child.exitCode)}`;
    const detail = `socat ${how}${run.stderr() === '' ? '' : `: ${run.stderr().split('\n')[0] ?? ''}`}`;
    for (const l of listeners.splice(0)) l(detail);
  });
  return {
    dir,
    socketPath,
    pid: run.child.pid ?? -1,
    stop(): Promise<void> {
      stopping ??= terminate(run).then(() => releaseEgressDir(dir, socketPath, socketId));
      return stopping;
    },
    onUnexpectedExit(listener: (detail: string) => void): void {
      listeners.push(listener);
    },
  };
}
