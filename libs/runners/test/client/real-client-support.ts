import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODING_CLIENTS, formatTuiDelivery, resolveInstalledClient } from '../../src';
import type { CodingClientName, InstalledClient } from '../../src';

/**
 * The published clients, run headless against the mock LLM (docs/clients.md). `.ci/run` installs the
 * pinned versions into a cache outside the repo and exports GENSWARMS_TEST_CLIENTS_DIR; without it (or
 * with a client missing there) the specs say so and skip.
 */
export function clientUnderTest(name: CodingClientName): { client: InstalledClient } | { skip: string } {
  const dir = process.env['GENSWARMS_TEST_CLIENTS_DIR'];
  const pinned = CODING_CLIENTS[name].pinnedVersion;
  let skip: string;
  if (dir === undefined || dir === '') {
    skip = 'GENSWARMS_TEST_CLIENTS_DIR is not set (.ci/run installs the pinned clients and sets it)';
  } else {
    const found = resolveInstalledClient(dir, name);
    if (found.kind === 'ok') return { client: found.client };
    skip = `${name} ${pinned} is not usable in ${dir}: ${found.kind}: ${found.reason}`;
  }
  console.warn(`SKIPPING the ${name} ${pinned} headless specs: ${skip}`);
  return { skip };
}

/** A turn as the host prepares it: HOME, TMPDIR and a workspace with `.genswarms/turns/<id>/` (0700). */
export interface TurnWorld {
  readonly home: string;
  readonly tmp: string;
  readonly workspace: string;
  readonly turnId: string;
  readonly turnDir: string;
  /** The TUI delivery text of docs/messaging.md, with a `SEND_TO:critic:…` marker for the mock. */
  readonly task: string;
  /** A fresh fake key: it must reach the mock, never an argv. */
  readonly key: string;
  cleanup(): void;
}

export const TASK_CONTENT = 'summarise notes.md SEND_TO:critic:please review the summary';

export function makeTurnWorld(prefix: string): TurnWorld {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const home = join(base, 'home');
  const tmp = join(base, 'tmp');
  const workspace = join(base, 'workspace');
  const turnId = `t${randomBytes(4).toString('hex')}`;
  const turnDir = join(workspace, '.genswarms', 'turns', turnId);
  for (const d of [home, tmp, workspace, turnDir]) mkdirSync(d, { recursive: true, mode: 0o700 });
  const task = formatTuiDelivery({
    turnId,
    seq: 1,
    from: '_operator',
    content: TASK_CONTENT,
    clientTurnsDir: join(workspace, '.genswarms', 'turns'),
  });
  const key = `sk-genswarms-test-${randomBytes(12).toString('hex')}`;
  return { home, tmp, workspace, turnId, turnDir, task, key, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export interface ClientRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
  readonly ms: number;
  /** Every `/proc/<pid>/cmdline` seen holding the key while the client ran (must stay empty). */
  readonly keyInArgv: string[];
}

/** Client runs are bounded below jest's 30 s test timeout, so a hang is killed, not left behind. */
export const CLIENT_RUN_TIMEOUT_MS = 25_000;

/**
 * Runs `binary argv…` (no shell, exactly `env`, stdin closed, own process group) and, every 20 ms while
 * it runs, reads every process's argv on the host for `secret`.
 */
export function runClient(
  binary: string,
  argv: readonly string[],
  env: Record<string, string>,
  cwd: string,
  secret: string,
): Promise<ClientRun> {
  const started = Date.now();
  const keyInArgv: string[] = [];
  const scan = (): void => {
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      } catch {
        continue; // expected: the process exited between readdir and read
      }
      if (cmdline.includes(secret)) keyInArgv.push(`${pid}: ${cmdline.split('\0')[0] ?? ''}`);
    }
  };
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...argv], { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env, cwd, detached: true });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const sampler = setInterval(scan, 20);
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // best-effort: the group is already gone
      }
    };
    const timer = setTimeout(killGroup, CLIENT_RUN_TIMEOUT_MS);
    child.once('error', (err) => {
      clearInterval(sampler);
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearInterval(sampler);
      clearTimeout(timer);
      scan();
      killGroup(); // anything the client left running in its group (none seen, but never outlive the spec)
      resolve({ code, signal, output, ms: Date.now() - started, keyInArgv });
    });
  });
}

/** What the turn left: reply.md, done.json, and the outbox message. */
export function turnResult(world: TurnWorld): { reply: string; done: unknown; outbox: Record<string, unknown> } {
  const outboxDir = join(world.workspace, '.outbox');
  const outbox: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of readdirSync(outboxDir)) outbox[name] = JSON.parse(readFileSync(join(outboxDir, name), 'utf8')) as unknown;
  return {
    reply: readFileSync(join(world.turnDir, 'reply.md'), 'utf8'),
    done: JSON.parse(readFileSync(join(world.turnDir, 'done.json'), 'utf8')) as unknown,
    outbox,
  };
}

/** The receipt the mock's shell command writes for TASK_CONTENT (tools/README.md, "The coding-agent turn"). */
export function expectedTurn(world: TurnWorld): { reply: string; done: unknown; outbox: Record<string, unknown> } {
  return {
    reply: `mock reply to turn ${world.turnId}: ${TASK_CONTENT}\n`,
    done: { v: 1, turn: world.turnId, status: 'ok' },
    outbox: { [`mock-${world.turnId}.json`]: { to: 'critic', content: 'please review the summary' } },
  };
}

/** The host PATH the clients get (their shell tools run sh, base64, mv from it). */
export const CLIENT_TEST_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Samples every process's argv on the host every 20 ms for `secret` until `stop()`: the key must never
 * appear on a command line (it travels in the environment and by variable name only).
 */
export function watchArgvFor(secret: string): { stop(): string[] } {
  const hits = new Set<string>();
  const scan = (): void => {
    for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      } catch {
        continue; // expected: the process exited between readdir and read
      }
      if (cmdline.includes(secret)) hits.add(`${pid}: ${cmdline.split('\0')[0] ?? ''}`);
    }
  };
  const timer = setInterval(scan, 20);
  return {
    stop: () => {
      clearInterval(timer);
      scan();
      return [...hits];
    },
  };
}
