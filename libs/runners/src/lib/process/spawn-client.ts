import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { procctlStatus, spawnDetached, SpawnFailedError } from '@genswarms/procctl';
import { RunnerError } from '../errors/runner-error';
import { waitSpawned, type SpawnedChild } from './child-handle';

export interface ClientSpawn {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly agent: string;
}

/** Which spawn starts process-backed clients: `posix_spawn` off the main thread, or Node's (tests compare both). */
export type SpawnMode = 'procctl' | 'node';

let forcedMode: SpawnMode | undefined;

/** Tests only: pin the spawn used (undefined = procctl when its addon loads, else Node's). */
export function setClientSpawnModeForTests(mode: SpawnMode | undefined): void {
  forcedMode = mode;
}

export function clientSpawnMode(): SpawnMode {
  return forcedMode ?? (procctlStatus().kind === 'ok' ? 'procctl' : 'node');
}

/**
 * Starts a client in its own process group (detached), stdin /dev/null, exactly `env`, no shell. With an absolute
 * file and the procctl addon the fork+exec runs as `posix_spawn` on a thread-pool thread: Node's `spawn` forks on
 * the main thread and waits there for the child's exec (10–35 ms per agent on a loaded box, the largest part of a
 * 1,000-agent bwrap launch, docs/benchmarks.md Session 6). That client's stdout and stderr are one pipe, the only
 * descriptor the server holds for it (no pidfd either: the addon finds the exit by the pipe's end and SIGCHLD), so
 * its lines all come as `stdout`, in the order written; Node's spawn (no addon) pipes them apart and holds more.
 * Rejects `start_failed` with the errno code when the client cannot be started (ENOENT, EACCES …).
 */
export async function spawnClient(req: ClientSpawn): Promise<SpawnedChild> {
  if (clientSpawnMode() === 'procctl' && isAbsolute(req.file) && isAbsolute(req.cwd)) {
    try {
      return await spawnDetached({ file: req.file, argv: [req.file, ...req.args], env: req.env, cwd: req.cwd });
    } catch (err) {
      const code = err instanceof SpawnFailedError ? err.errno : 'error';
      throw new RunnerError('start_failed', `client could not be started: ${code}`, { agent: req.agent, cause: err });
    }
  }
  const child = spawn(req.file, [...req.args], {
    shell: false,
    detached: true,
    cwd: req.cwd,
    env: { ...req.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitSpawned(child, req.agent);
  return child;
}
