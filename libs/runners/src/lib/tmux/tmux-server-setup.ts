/** Where a runner's tmux servers live, what each is told at start, and how one is waited out after `kill-server`. */

import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { isProcessAlive } from '../process/process-tree';
import { CONTROL_SESSION } from './tmux-words';

/** The control session's only pane runs this and exits; `remain-on-exit` keeps the session alive. */
const CONTROL_PLACEHOLDER = '/bin/true';

/** A pane created for an agent. */
export interface PaneRef {
  readonly paneId: string;
  readonly panePid: number;
  readonly windowId: string;
}

/** How many tmux servers one runner may use (indexes 0 … TMUX_SERVERS_MAX - 1). */
export const TMUX_SERVERS_MAX = 64;

/** `$home/tmux/tmux.sock` (server 0) or `$home/tmux/tmux-<index>.sock` (one server per few hundred panes). */
export function tmuxSocketPath(home: string, index = 0): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= TMUX_SERVERS_MAX) {
    throw new RunnerError('validation_failed', `tmux server index must be 0…${TMUX_SERVERS_MAX - 1}`);
  }
  return path.join(home, 'tmux', index === 0 ? 'tmux.sock' : `tmux-${index}.sock`);
}

/** The server index a socket file name stands for (`tmux.sock` → 0, `tmux-<k>.sock` → k), else undefined. */
export function tmuxSocketIndexOf(name: string): number | undefined {
  const m = /^tmux(?:-([1-9][0-9]?))?\.sock$/.exec(name);
  if (m === null) return undefined;
  const index = m[1] === undefined ? 0 : Number(m[1]);
  return index < TMUX_SERVERS_MAX ? index : undefined;
}

/** Server-wide options, run by the control client before it attaches (argv words, `;` separated). */
export function initialArgv(dockerConfigDir: string): string[] {
  const set = (scope: '-g' | '-s', name: string, value: string): string[] => ['set-option', scope, name, value, ';'];
  return [
    // The server's own LD_PRELOAD (the no-utmp shim, TmuxServer.open) is not for the panes: tmux builds a pane's
    // environment from this global one, which starts as a copy of the first client's.
    'set-environment',
    '-g',
    '-u',
    'LD_PRELOAD',
    ';',
    // A pane's `docker start -ai` (tmux+docker) must not follow the operator's ~/.docker/config.json
    // (a remote currentContext would redirect the attach): panes get an empty private config dir.
    'set-environment',
    '-g',
    'DOCKER_CONFIG',
    dockerConfigDir,
    ';',
    ...set('-g', 'update-environment', ''), // no client environment ever reaches a pane
    ...set('-g', 'remain-on-exit', 'on'), // a crashed client stays observable (pane_dead), never respawned
    ...set('-g', 'allow-rename', 'off'), // a pane cannot rename its window (targets stay exact)
    ...set('-g', 'automatic-rename', 'off'),
    ...set('-g', 'set-clipboard', 'off'), // a pane cannot create tmux buffers via OSC 52
    ...set('-s', 'exit-empty', 'off'),
    'new-session',
    '-A',
    '-s',
    CONTROL_SESSION,
    '--',
    CONTROL_PLACEHOLDER,
  ];
}

/** How long kill() waits for the killed tmux server to exit before it SIGKILLs it (ms). */
const TMUX_SERVER_EXIT_WAIT_MS = 5000;

export async function waitServerGone(pid: number): Promise<void> {
  const deadline = Date.now() + TMUX_SERVER_EXIT_WAIT_MS;
  let killed = false;
  while (isProcessAlive(pid)) {
    if (!killed && Date.now() > deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // expected: it exited between the look and the signal
      }
      killed = true; // and wait for it to go: a server opened on the socket meanwhile would join the dying one
    } else if (killed && Date.now() > deadline + TMUX_SERVER_EXIT_WAIT_MS) {
      return; // unkillable (a D-state wait): nothing more can be done here
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function parsePaneRef(line: string | undefined): PaneRef | undefined {
  const m = /^(@\d+) (%\d+) (\d+)$/.exec(line ?? '');
  if (m === null) return undefined;
  return { windowId: m[1] as string, paneId: m[2] as string, panePid: Number(m[3]) };
}
