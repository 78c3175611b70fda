import { constants as osc } from 'node:os';
import type * as Pty from 'node-pty';
import type { LaunchPlan, RunnerHandle } from '../port';
import { RunnerError } from '../errors/runner-error';
import { makeHandle } from '../process/child-handle';
import { LineBuffer, OutputHub } from '../process/output-hub';
import { describePlan } from '../plan/describe';
import { formatTuiDelivery } from '../client/tui-delivery';

/** Terminal size given to TUI clients. */
export const PTY_COLS = 160;
export const PTY_ROWS = 48;

/**
 * node-pty, loaded when the first pty client starts (never by the runners barrel): it is an optional
 * dependency with a native build, so embedding the runners without TUI clients needs no C++ toolchain.
 * Missing or unloadable → `pty_unavailable` for the agent; nothing is spawned.
 */
export function loadPty(
  agent: string,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; `import()` is not available to jest's CommonJS runtime
  load: () => unknown = () => require('node-pty'),
): typeof Pty {
  try {
    return load() as typeof Pty;
  } catch (err) {
    throw new RunnerError('pty_unavailable', 'TUI clients need the optional dependency node-pty, which is not installed or does not load', {
      agent,
      cause: err,
    });
  }
}

/**
 * A TUI client in a pseudo-terminal (argv only: node-pty execs `file` with `args`, no shell).
 * The pty child is a session leader, so its pid is also its process group for the tree kill;
 * `cleanup` (the agent's cgroup kill) runs after it, for what left the tree.
 */
export function startPtyClient(plan: LaunchPlan, file: string, args: readonly string[], cleanup?: () => Promise<void>): RunnerHandle {
  const pty = loadPty(plan.spec.agent);
  let term: Pty.IPty;
  try {
    term = pty.spawn(file, [...args], {
      name: 'xterm-256color',
      cols: PTY_COLS,
      rows: PTY_ROWS,
      cwd: plan.spec.workspace,
      env: { ...plan.env },
    });
  } catch (err) {
    throw new RunnerError('start_failed', 'the TUI client could not be started', { agent: plan.spec.agent, cause: err });
  }
  const hub = new OutputHub();
  const lines = new LineBuffer();
  term.onData((data) => {
    for (const line of lines.push(data)) hub.emitLine('stdout', line);
  });
  term.onExit(({ exitCode, signal }) => {
    const rest = lines.flush();
    if (rest !== undefined) hub.emitLine('stdout', rest);
    hub.emitExit(signal ? null : exitCode, signal ? signalName(signal) : null);
  });
  const deliver = (turn: Parameters<typeof formatTuiDelivery>[0]): Promise<void> => {
    term.write(formatTuiDelivery(turn));
    term.write('\r');
    return Promise.resolve();
  };
  return makeHandle(
    hub,
    { description: describePlan(plan, { pid: term.pid }), deliver, ...(cleanup === undefined ? {} : { cleanup }) },
    term.pid,
  );
}

function signalName(num: number): string {
  const entry = Object.entries(osc.signals).find(([, n]) => n === num);
  return entry === undefined ? String(num) : entry[0];
}
