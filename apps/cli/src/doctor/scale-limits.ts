import { readFileSync } from 'node:fs';
import type { Check } from './probes';

/**
 * Descriptors the server holds per running agent, rounded up: a headless client's stdout and stderr
 * pipes, the outbox watches (workspace and `.outbox`) and a turn's receipt watch (docs/benchmarks.md).
 */
export const FDS_PER_AGENT = 4;
/** inotify watches per running agent: workspace, `.outbox`, the turn directory of an in-flight turn. */
export const WATCHES_PER_AGENT = 3;
/** The swarm size the limits are checked against (the scale goal of docs/benchmarks.md). */
export const TARGET_AGENTS = 1000;
/** Descriptors the server needs besides its agents (SQLite, sockets, clients, logs). */
const FDS_BASE = 256;

/** The soft `Max open files` limit from `/proc/self/limits` text; undefined when absent or unlimited. */
export function parseOpenFilesLimit(limits: string): number | undefined {
  const m = /^Max open files\s+(\d+|unlimited)\s+/m.exec(limits);
  return m === null || m[1] === 'unlimited' ? undefined : Number(m[1]);
}

/** How many agents a limit supports: (limit − base) / per agent, at least 0. */
export function agentsSupported(limit: number, perAgent: number, base = 0): number {
  return Math.max(0, Math.floor((limit - base) / perAgent));
}

function readOr(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // expected: not Linux, or /proc hidden: reported as missing
  }
}

/** `ulimit -n` as seen by this process (run doctor as the server's user and shell). */
export function checkOpenFiles(read: () => string | undefined = () => readOr('/proc/self/limits')): Check {
  const limitsText = read();
  if (limitsText === undefined) return { name: 'open files', status: 'missing', detail: 'no /proc/self/limits' };
  const limit = parseOpenFilesLimit(limitsText);
  if (limit === undefined) return { name: 'open files', status: 'ok', detail: 'ulimit -n unlimited' };
  const agents = agentsSupported(limit, FDS_PER_AGENT, FDS_BASE);
  const enough = agents >= TARGET_AGENTS;
  return {
    name: 'open files',
    status: enough ? 'ok' : 'problem',
    detail: `ulimit -n ${limit}: about ${agents} running agents${enough ? '' : ` (raise it to ${FDS_BASE + FDS_PER_AGENT * TARGET_AGENTS} or more for ${TARGET_AGENTS})`}`,
  };
}

/** `fs.inotify.max_user_watches`: outbox and receipt watches are inotify watches of the server's user. */
export function checkInotifyWatches(read: () => string | undefined = () => readOr('/proc/sys/fs/inotify/max_user_watches')): Check {
  const text = read();
  const limit = text === undefined ? NaN : Number(text.trim());
  if (!Number.isInteger(limit) || limit < 0)
    return { name: 'inotify watches', status: 'missing', detail: 'fs.inotify.max_user_watches unreadable' };
  const agents = agentsSupported(limit, WATCHES_PER_AGENT);
  const enough = agents >= TARGET_AGENTS;
  return {
    name: 'inotify watches',
    status: enough ? 'ok' : 'problem',
    detail: `fs.inotify.max_user_watches ${limit}: about ${agents} running agents${enough ? '' : ` (sysctl fs.inotify.max_user_watches=${WATCHES_PER_AGENT * TARGET_AGENTS * 4})`}; past it the engine falls back to polling`,
  };
}
