import { constants as osc } from 'node:os';
import type * as Pty from 'node-pty';
import type { ClientBlocked, ClientReadiness, LaunchPlan, RunnerHandle, TurnDelivery } from '../port';
import { RunnerError } from '../errors/runner-error';
import { makeHandle } from '../process/child-handle';
import { LineBuffer, OutputHub } from '../process/output-hub';
import { describePlan } from '../plan/describe';
import { buildTuiTurnText } from '../tmux/turn-text';
import type { ClientScreenRules } from '../client/screens/screen-rules';
import { ScreenDriver } from '../screen/screen-driver';
import { redactScreen, secretValuesOf } from '../screen/screen-lines';
import { PtyScreen } from './pty-screen';

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

/** What a pty client is started with besides its argv: its screen rules (none: text and Enter are written at once). */
export interface PtyClientOptions {
  readonly screen?: ClientScreenRules;
  /** The agent's cgroup kill, run after the tree kill for what left the tree. */
  readonly cleanup?: () => Promise<void>;
}

/**
 * A TUI client in a pseudo-terminal (argv only: node-pty execs `file` with `args`, no shell), its screen kept by a
 * headless terminal (pty-screen.ts) for `captureScreen` and the screen rules. The pty child is a session leader,
 * so its pid is also its process group for the tree kill.
 */
export function startPtyClient(plan: LaunchPlan, file: string, args: readonly string[], opts: PtyClientOptions = {}): RunnerHandle {
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
  const secrets = secretValuesOf(plan.env);
  const screen = new PtyScreen(PTY_COLS, PTY_ROWS, (reply) => {
    if (!hub.exited) term.write(reply);
  });
  const driver =
    opts.screen === undefined
      ? undefined
      : new ScreenDriver(
          {
            capture: async () => redactScreen(await screen.visible(), secrets),
            paste: async (text) => term.write(screen.pasteBytes(text)),
            pressEnter: async () => term.write('\r'),
            exited: () => hub.exited,
          },
          opts.screen,
        );
  term.onData((data) => {
    screen.write(data);
    driver?.noteOutput();
    for (const line of lines.push(data)) hub.emitLine('stdout', line);
  });
  term.onExit(({ exitCode, signal }) => {
    driver?.close();
    const rest = lines.flush();
    if (rest !== undefined) hub.emitLine('stdout', rest);
    hub.emitExit(signal ? null : exitCode, signal ? signalName(signal) : null);
  });
  const deliver = async (turn: TurnDelivery): Promise<void> => {
    if (driver !== undefined) return driver.deliver(turn, buildTuiTurnText(turn));
    term.write(screen.pasteBytes(buildTuiTurnText(turn)));
    term.write('\r');
  };
  const handle = makeHandle(
    hub,
    { description: describePlan(plan, { pid: term.pid }), deliver, ...(opts.cleanup === undefined ? {} : { cleanup: opts.cleanup }) },
    term.pid,
  );
  const screenParts: Pick<RunnerHandle, 'captureScreen' | 'waitUntilReady' | 'onClientBlocked'> = {
    captureScreen: async () => trimTrailingBlank(redactScreen(await screen.all(), secrets)),
    ...(driver === undefined
      ? {}
      : {
          waitUntilReady: (signal: AbortSignal): Promise<ClientReadiness> => driver.waitUntilReady(signal),
          onClientBlocked: (listener: (blocked: ClientBlocked) => void) => driver.onBlocked(listener),
        }),
  };
  return Object.assign(handle, screenParts);
}

function trimTrailingBlank(lines: readonly string[]): readonly string[] {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return lines.slice(0, end);
}

function signalName(num: number): string {
  const entry = Object.entries(osc.signals).find(([, n]) => n === num);
  return entry === undefined ? String(num) : entry[0];
}
