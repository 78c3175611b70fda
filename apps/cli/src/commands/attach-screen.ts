import type { CommandDeps } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';

/** How often a local TUI agent's screen is read while attached (ms): a person watching, not a feed. */
export const SCREEN_POLL_MS = 1000;
/** Clear the terminal and home the cursor: each new screen replaces the last one on a TTY. */
const REDRAW = '\x1b[H\x1b[2J';

/** The clients a local agent runs in a pty (docs/runners.md "local"): they have a screen, no tmux pane. */
export function isLocalTuiAgent(status: { backend?: unknown; client?: unknown }): boolean {
  return status.backend === 'local' && (status.client === 'codex' || status.client === 'claude' || status.client === 'opencode');
}

/**
 * `attach` to a local TUI agent: its screen as the server's headless terminal holds it (`GET …/screen`), drawn again
 * whenever it changes, until Ctrl-C. Read-only: a pty client has no tmux to type into. Lines are neutralised.
 */
export async function attachScreen(deps: CommandDeps, swarm: string, agent: string): Promise<ExitCode> {
  const { stdout, stderr, signal } = deps.ctx;
  const redraw = stdout === process.stdout && process.stdout.isTTY;
  writeLine(stderr, `the screen of ${oneLine(swarm, 64)}/${oneLine(agent, 64)} (local TUI agent, read-only; Ctrl-C to stop)`);
  let shown: string | undefined;
  while (signal?.aborted !== true) {
    const { screen } = await callOp(deps, 'agentScreen', { params: { s: swarm, a: agent } }, { json: false });
    if (screen === null) {
      writeLine(stderr, 'the agent has no screen now (not running)');
      return EXIT.failed;
    }
    const text = screen.map((l) => (typeof l === 'string' ? oneLine(l, 4000) : '')).join('\n');
    if (text !== shown) stdout.write(redraw ? `${REDRAW}${text}\n` : `${shown === undefined ? '' : '--\n'}${text}\n`);
    shown = text;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, SCREEN_POLL_MS);
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }
  return EXIT.ok;
}
