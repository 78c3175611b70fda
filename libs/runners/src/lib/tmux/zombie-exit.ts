import { promises as fsp } from 'node:fs';
import { signalNameOf } from './pane-state';

/** What `/proc/<pid>/stat` says about a process that has exited but is not reaped yet. */
export interface ZombieExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/** Field 3 (state) is the first field after `(comm)`; field 4 is the parent pid, field 52 the wait status. */
const STATE_INDEX = 0;
const PPID_INDEX = 1;
const EXIT_CODE_INDEX = 49;

/**
 * Parses one `/proc/<pid>/stat` line. Returns the exit of a zombie whose parent is `parentPid`,
 * or undefined for anything else (alive, another parent, a malformed line). `comm` may hold spaces
 * and parentheses, so fields are counted from the LAST `)`.
 */
export function parseZombieStat(line: string, parentPid: number): ZombieExit | undefined {
  const close = line.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = line
    .slice(close + 1)
    .trim()
    .split(' ');
  if (fields[STATE_INDEX] !== 'Z' || fields[PPID_INDEX] !== String(parentPid)) return undefined;
  const raw = fields[EXIT_CODE_INDEX];
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return decodeWaitStatus(Number(raw));
}

/** waitpid(2) encoding: low 7 bits = terminating signal (0 = normal exit, code in bits 8-15). */
export function decodeWaitStatus(status: number): ZombieExit | undefined {
  const sig = status & 0x7f;
  if (sig === 0) return { code: (status >> 8) & 0xff, signal: null };
  if (sig === 0x7f) return undefined; // stopped, not exited
  return { code: null, signal: signalNameOf(sig) };
}

/**
 * The exit of `pid` if it is a zombie child of `parentPid` (the tmux server): tmux marks a pane dead
 * when its pty closes, and under load it can take seconds, or longer, to reap the child and record
 * `pane_dead_status`. The kernel already holds the status; this reads it. Undefined when the process
 * is gone, alive, or not that parent's child (a reused pid is never mistaken for the pane's process).
 */
export async function readZombieExit(pid: number, parentPid: number): Promise<ZombieExit | undefined> {
  if (!Number.isSafeInteger(pid) || pid <= 1 || !Number.isSafeInteger(parentPid) || parentPid <= 1) return undefined;
  let line: string;
  try {
    line = await fsp.readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // expected: no /proc entry, the process is gone
    return undefined;
  }
  return parseZombieStat(line, parentPid);
}
