/**
 * Shared by engine-escaped-processes.spec.ts and its stand-in server (fixtures/escape-server.ts): an engine
 * with the real local and tmux runners on a given home, clients that escape their process tree, and a
 * /proc probe for what they leave behind.
 */
import { buildRunnerContext, createRunnerRegistry, createTmuxRunner, type RunnerRegistry } from '@genswarms/runners';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Engine } from '../src/lib/swarms/engine';

/** setsid, a double fork with its own process group, nohup: each leaves a `sleep <mark>` behind. */
export function escapingCommand(marks: readonly [string, string, string]): string[] {
  const [setsid, doubleFork, nohup] = marks;
  const script = [
    `( setsid sh -c 'exec sleep ${setsid}' & )`,
    `perl -e 'fork and exit; setpgrp(0, 0); fork and exit; exec "sleep", "${doubleFork}"'`,
    `nohup sleep ${nohup} >/dev/null 2>&1 &`,
    'exec sleep 100000',
  ];
  return ['/bin/sh', '-c', script.join('\n')];
}

let seq = 0;
/** Three sleep arguments no other spec uses. */
export function uniqueMarks(): [string, string, string] {
  const base = 5_000_000 + (process.pid % 100_000) * 10;
  return [0, 1, 2].map(() => `${base + ++seq}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`) as [string, string, string];
}

/** A swarm with one local and one tmux `runner: none` agent, each running the escaping client. */
export function escapeSwarm(
  name: string,
  marks: { local: [string, string, string]; tmux: [string, string, string] },
): Record<string, unknown> {
  return {
    name,
    agents: [
      { name: 'loc', backend: 'local', network: 'open', client: { command: escapingCommand(marks.local) } },
      { name: 'tmx', backend: { type: 'tmux', runner: 'none' }, client: { command: escapingCommand(marks.tmux) } },
    ],
  };
}

/** Live (not zombie) pids of `sleep <mark>`. */
export function liveSleeps(mark: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const words = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if ((words[0] ?? '').endsWith('sleep') && words[1] === mark && state !== 'Z') out.push(Number(entry));
    } catch {
      // expected: the process exited while we looked
    }
  }
  return out;
}

/** An engine on `home` with the built-in runners plus tmux (the runner context detected as in production). */
export function openEscapeEngine(home: string): Promise<Engine> {
  const ctx = buildRunnerContext({
    path: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    home,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    agentEntry: path.join(home, 'agent-main.js'),
    llm: { allowedHosts: [] },
  });
  const runners: RunnerRegistry = createRunnerRegistry(ctx, { tmux: createTmuxRunner() });
  return Engine.open({ home, configDir: path.join(home, 'configs'), runners, runnerContext: ctx, receiptPollMs: 20, outboxPollMs: 50 });
}

/** Kills the tmux server a test left on `home`, if its socket exists (cleanup after a spec). */
export async function killTmuxServerOf(home: string): Promise<void> {
  if (!existsSync(path.join(home, 'tmux', 'tmux.sock'))) return;
  const ctx = buildRunnerContext({
    path: '/usr/bin:/bin',
    home,
    uid: 0,
    gid: 0,
    agentEntry: '/nonexistent.js',
    node: process.execPath,
    llm: { allowedHosts: [] },
  });
  await (await createTmuxRunner().server(ctx)).kill();
}
