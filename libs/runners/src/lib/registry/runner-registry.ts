import type { BackendKind, Runner, RunnerCloseMode, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { createBwrapRunner } from '../bwrap/bwrap-runner';
import { createLocalRunner } from '../local/local-runner';
import { createMockRunner } from '../mock/mock-runner';
import { createAppleContainerRunner } from '../apple/apple-runner';
import { createSshRunner } from '../ssh/ssh-runner';

export interface RunnerRegistry {
  /** The runner of a backend; `runner_error` if none is registered (e.g. docker without an engine). */
  get(kind: BackendKind): Runner;
  has(kind: BackendKind): boolean;
  /** Closes every runner that holds shared resources (see `Runner.close`); never throws. */
  closeAll(mode: RunnerCloseMode): Promise<void>;
}

/**
 * The runners by backend. local, bwrap, mock, ssh and apple_container are built in; tmux and docker need options (a socket
 * directory, an engine port), so the app passes them in `extra` (which may also replace a built-in).
 */
export function createRunnerRegistry(_ctx: RunnerContext, extra: Partial<Record<BackendKind, Runner>> = {}): RunnerRegistry {
  const runners = new Map<BackendKind, Runner>([
    ['local', createLocalRunner()],
    ['bwrap', createBwrapRunner()],
    ['mock', createMockRunner()],
    ['ssh', createSshRunner()],
    ['apple_container', createAppleContainerRunner()], // plans only on macOS with the CLI; elsewhere binary_missing
  ]);
  for (const [kind, runner] of Object.entries(extra) as [BackendKind, Runner | undefined][]) {
    if (runner !== undefined) runners.set(kind, runner);
  }
  return {
    get(kind) {
      const runner = runners.get(kind);
      if (runner === undefined) throw new RunnerError('runner_error', `no runner is registered for backend ${kind}`);
      return runner;
    },
    has: (kind) => runners.has(kind),
    async closeAll(mode) {
      for (const runner of new Set(runners.values())) await runner.close?.(mode);
    },
  };
}
