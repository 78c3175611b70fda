/** Clients that leave their process tree on purpose, and a /proc probe for what they left behind. */
import { readdirSync, readFileSync } from 'node:fs';
import { isProcessAlive } from '../../src/lib/process/process-tree';

/** The escapes a hostile client can try, each leaving a `sleep <unique>` behind (parent 1 or a subreaper). */
export const ESCAPES: ReadonlyArray<readonly [string, (unique: string) => string]> = [
  ['setsid', (u) => `( setsid sh -c 'exec sleep ${u}' & )`],
  ['double fork with its own process group', (u) => `perl -e 'fork and exit; setpgrp(0, 0); fork and exit; exec "sleep", "${u}"'`],
  ['nohup', (u) => `nohup sleep ${u} >/dev/null 2>&1 &`],
];

let counter = 0;
/** A sleep argument no other spec (or run) uses: found in /proc, it can only be ours. */
export function uniqueSleepArg(): string {
  counter += 1;
  return `${4_000_000 + (process.pid % 100_000) * 10 + counter}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
}

/** The client argv (a hostile client's own program, not a genswarms shell string): escapes, then a long sleep. */
export function escapingClient(escapes: readonly string[]): string[] {
  return ['/bin/sh', '-c', [...escapes, 'exec sleep 100000'].join('\n')];
}

/** Live (not zombie) `sleep <unique>` processes. */
export function liveSleeps(unique: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let words: string[];
    try {
      words = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // exited while we looked
    }
    if ((words[0] ?? '').endsWith('sleep') && words[1] === unique && isProcessAlive(Number(entry))) out.push(Number(entry));
  }
  return out;
}

/** afterAll: SIGKILL whatever a failed spec left (only our unique sleeps). */
export function killLeftSleeps(uniques: readonly string[]): void {
  for (const u of uniques) {
    for (const pid of liveSleeps(u)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
