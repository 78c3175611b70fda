import { constants as osc } from 'node:os';

/** What `list-panes -a -F PANE_FORMAT` tells about one pane. */
export interface PaneState extends PaneDeath {
  readonly session: string;
  readonly window: string;
  readonly windowId: string;
  readonly paneId: string;
  readonly panePid: number;
}

/** Space-separated: Names, ids and numbers never contain a space; dead fields are empty while alive. */
export const PANE_FORMAT =
  '#{session_name} #{window_name} #{window_id} #{pane_id} #{pane_pid} #{pane_dead} #{pane_dead_status} #{pane_dead_signal}';

const SIGNAL_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(osc.signals).map(([name, num]) => [num, name] as [number, string]),
);

/** Parses one line of PANE_FORMAT; lines of any other shape (foreign windows) are ignored. */
export function parsePaneLine(line: string): PaneState | undefined {
  const f = line.split(' ');
  if (f.length !== 8) return undefined;
  const [session, window, windowId, paneId, pid, dead, status, signal] = f as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (!/^@\d+$/.test(windowId) || !/^%\d+$/.test(paneId) || !/^\d+$/.test(pid)) return undefined;
  return { session, window, windowId, paneId, panePid: Number(pid), ...paneDeathOf(dead, status, signal) };
}

/** Whether a pane is dead, and how it ended: what pane watchers are told. */
export interface PaneDeath {
  readonly dead: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** The `#{pane_dead} #{pane_dead_status} #{pane_dead_signal}` fields (dead fields are empty while alive). */
export function paneDeathOf(dead: string, status: string, signal: string): PaneDeath {
  return { dead: dead === '1', exitCode: /^\d+$/.test(status) ? Number(status) : null, signal: signalName(signal) };
}

/** `SIGTERM` for 15; `SIG<n>` for a number this platform does not name. */
export function signalNameOf(num: number): string {
  return SIGNAL_NAMES.get(num) ?? `SIG${num}`;
}

function signalName(raw: string): string | null {
  if (raw === '') return null;
  if (/^\d+$/.test(raw)) return signalNameOf(Number(raw));
  return raw.startsWith('SIG') ? raw : `SIG${raw}`;
}
