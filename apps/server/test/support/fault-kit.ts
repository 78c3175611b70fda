/**
 * Shared parts of the fault-injection specs (apps/server/test/fault-*.spec.ts): /bin/sh agent
 * clients that speak the agent protocol, a restartable real server process, exactly-once checks read
 * back through the API, a scan for agent processes left behind, and the figures a full run records.
 */
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildOnce, freePort } from '@genswarms/tools';
import { waitFor } from './engine-server';
import { kill9, startServerProcess } from './server-process';

/** `GENSWARMS_RELIABILITY=full` (npm run reliability) runs the large counts; npm test runs the small ones. */
export const FULL = process.env['GENSWARMS_RELIABILITY'] === 'full';
export const TMUX = '/usr/bin/tmux';
export const DOCKER_SOCKET = '/var/run/docker.sock';
export const TEST_IMAGE = 'genswarms/test-agent:latest';

/**
 * TUI client: reads the pasted turn, waits `delay` seconds (the crash lands here; 30 when the content held
 * the word SLOW), writes reply.md then done.json.
 */
export function tuiClient(delay = 1): string {
  return `
d=${delay}
while IFS= read -r line; do
  case "$line" in
    *SLOW*) d=30 ;;
    *"When finished, write your reply to "*)
      rest=\${line#*When finished, write your reply to }
      reply=\${rest%%, then write*}
      dir=\${reply%/reply.md}
      turn=\${dir##*/}
      sleep "$d"
      d=${delay}
      printf 'done %s\\n' "$turn" > "$dir/.r" && mv "$dir/.r" "$reply"
      printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$dir/.d" && mv "$dir/.d" "$dir/done.json"
      ;;
  esac
done`;
}

/** Headless client: polls the inbox and answers each turn once (docs/agent.md#3-finishing-a-turn-the-receipt), after `delay` seconds (30 for content holding SLOW). */
export function headlessClient(delay = 1): string {
  return `
T="$GENSWARMS_TURNS_DIR"
while :; do
  for f in "$GENSWARMS_WORKSPACE"/.inbox/*.json; do
    [ -f "$f" ] || continue
    turn=$(sed -n 's/.*"turn":"\\([a-z0-9_-]*\\)".*/\\1/p' "$f")
    [ -n "$turn" ] || continue
    [ -e "$T/$turn/done.json" ] && continue
    d=${delay}
    grep -q SLOW "$f" && d=30
    sleep "$d"
    [ -e "$T/$turn/done.json" ] && continue
    printf 'done %s\\n' "$turn" > "$T/$turn/.r" && mv "$T/$turn/.r" "$T/$turn/reply.md"
    printf '{"v":1,"turn":"%s","status":"ok"}' "$turn" > "$T/$turn/.d" && mv "$T/$turn/.d" "$T/$turn/done.json"
  done
  sleep 0.1
done`;
}

/** A real server process on a fixed port that a test kills with SIGKILL and starts again on the same home. */
export class ServerUnderTest {
  child: ChildProcess | undefined;
  private readonly errs: string[] = [];
  constructor(
    readonly main: string,
    readonly base: string,
    readonly port: number,
    readonly env: Record<string, string> = {},
  ) {}
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.child = await startServerProcess(this.main, this.base, this.port, this.env);
    this.child.stderr?.on('data', (c: Buffer) => this.errs.push(c.toString('utf8')));
  }
  async kill(): Promise<void> {
    if (this.child !== undefined) await kill9(this.child);
    this.child = undefined;
  }
  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }
  stderr(): string {
    return this.errs.join('').slice(-3000);
  }
}

export type Row = Record<string, unknown>;

export async function agentStatus(url: string, swarm: string, agent: string): Promise<Row> {
  return (await request(url).get(`/api/swarms/${swarm}/agents/${agent}`)).body as Row;
}

export async function turnsOf(url: string, swarm: string, agent: string): Promise<Row[]> {
  return (await request(url).get(`/api/swarms/${swarm}/agents/${agent}/turns?limit=500`)).body.turns as Row[];
}

/** Every stored event of a swarm (optionally one type), oldest first, paged by since_id. */
export async function allEvents(url: string, swarm: string, type?: string): Promise<Row[]> {
  const out: Row[] = [];
  let since = 0;
  for (;;) {
    const q = `/api/swarms/${swarm}/events?limit=1000&since_id=${since}${type === undefined ? '' : `&event_type=${type}`}`;
    const page = (await request(url).get(q)).body.events as Row[];
    out.push(...page);
    if (page.length < 1000) return out;
    since = Number(page[page.length - 1]?.['id']);
  }
}

/** Waits for an agent state, failing with the agent's status, its last events and the server's stderr. */
export async function waitState(s: ServerUnderTest, swarm: string, agent: string, states: string[], ms = 90_000): Promise<Row> {
  try {
    return await waitFor(
      async () => {
        const st = await agentStatus(s.url, swarm, agent);
        return states.includes(String(st['state'])) ? st : undefined;
      },
      `${swarm}/${agent} ${states.join('|')}`,
      { timeoutMs: ms },
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${await diagnose(s, swarm, agent)}`);
  }
}

/** The agent status, its swarm's last events and the server's stderr: what a timed-out wait reports. */
export async function diagnose(s: ServerUnderTest, swarm: string, agent: string): Promise<string> {
  const ev = (await request(s.url).get(`/api/swarms/${swarm}/events?limit=40`)).body.events as Row[] | undefined;
  return `${JSON.stringify(await agentStatus(s.url, swarm, agent))} EVENTS ${JSON.stringify(
    (ev ?? []).map((x) => [x['event_type'], x['message']]),
  )} STDERR ${s.stderr()}`;
}

/** Waits until `agent` has `n` completed turns. */
export async function waitCompleted(s: ServerUnderTest, swarm: string, agent: string, n: number, ms = 120_000): Promise<void> {
  await waitFor(
    async () => (await turnsOf(s.url, swarm, agent)).filter((t) => t['status'] === 'completed').length >= n,
    `${swarm}/${agent}: ${n} turns completed`,
    { timeoutMs: ms },
  ).catch(async (e: Error) => Promise.reject(new Error(`${e.message}: ${await diagnose(s, swarm, agent)}`)));
}

/**
 * Exactly once, read back from the store through the API: each accepted item id has exactly one turn and
 * it completed; the swarm has one turn_completed event per completed turn and no turn id twice.
 */
export async function expectExactlyOnce(
  url: string,
  swarm: string,
  accepted: Map<string, string[]>,
): Promise<{ lost: number; duplicated: number }> {
  let lost = 0;
  let duplicated = 0;
  const completedTurns = new Set<string>();
  for (const [agent, ids] of accepted) {
    const turns = await turnsOf(url, swarm, agent);
    for (const id of ids) {
      const mine = turns.filter((t) => t['item_id'] === id);
      if (mine.length === 0 || !mine.some((t) => t['status'] === 'completed')) lost++;
      if (mine.length > 1) duplicated += mine.length - 1;
    }
    for (const t of turns) if (t['status'] === 'completed') completedTurns.add(String(t['id']));
  }
  const events = await allEvents(url, swarm, 'turn_completed');
  const perTurn = new Map<string, number>();
  for (const e of events) {
    const turn = String((e['metadata'] as Row | undefined)?.['turn']);
    perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  }
  for (const [, n] of perTurn) if (n > 1) duplicated += n - 1;
  expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  expect([...perTurn.keys()].sort()).toEqual([...completedTurns].sort());
  return { lost, duplicated };
}

/** Posts a task; returns the accepted item id (200 only). */
export async function sendTask(url: string, swarm: string, agent: string, task: string): Promise<string> {
  const res = await request(url).post(`/api/swarms/${swarm}/agents/${agent}/task`).send({ task });
  if (res.status !== 200) throw new Error(`task to ${swarm}/${agent}: ${res.status} ${JSON.stringify(res.body)}`);
  return String(res.body.id);
}

/** Host processes that carry `GENSWARMS_SWARM=<swarm>` and `GENSWARMS_AGENT=<agent>` and whose parent does not (one per running client). */
export function agentRoots(swarm: string): Map<string, number[]> {
  const envOf = (pid: string): Map<string, string> | null => {
    try {
      const kv = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      return new Map(kv.filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    } catch {
      return null;
    }
  };
  const ppidOf = (pid: string): string | null => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? null;
    } catch {
      return null;
    }
  };
  const out = new Map<string, number[]>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    const env = envOf(pid);
    if (env?.get('GENSWARMS_SWARM') !== swarm) continue;
    const agent = env.get('GENSWARMS_AGENT') ?? '';
    const ppid = ppidOf(pid);
    const parent = ppid === null ? null : envOf(ppid);
    if (parent?.get('GENSWARMS_SWARM') === swarm && parent.get('GENSWARMS_AGENT') === agent) continue;
    out.set(agent, [...(out.get(agent) ?? []), Number(pid)]);
  }
  return out;
}

/** Ends the tmux server of a test home (it outlives a SIGKILLed server by design). */
export function killTmuxServer(home: string): void {
  const socket = join(home, 'tmux', 'tmux.sock');
  if (existsSync(socket)) spawnSync(TMUX, ['-S', socket, 'kill-server'], { shell: false, stdio: 'ignore' });
}

/** Whether `docker` answers on `socket` and holds the test image (else the docker rows skip, saying why). */
export function dockerReady(socket = DOCKER_SOCKET): { ok: true } | { ok: false; why: string } {
  if (!existsSync(socket)) return { ok: false, why: `no docker engine at ${socket}` };
  const r = spawnSync('/usr/local/bin/docker', ['--host', `unix://${socket}`, 'image', 'inspect', TEST_IMAGE], {
    shell: false,
    stdio: 'ignore',
  });
  if (r.status !== 0) return { ok: false, why: `${TEST_IMAGE} is not in the engine (tools/docker/build-test-image.sh)` };
  return { ok: true };
}

/** Containers of `swarm` (label genswarms.swarm) in the engine at `socket`, with their state. */
export function containersOf(swarm: string, socket = DOCKER_SOCKET): string[] {
  const r = spawnSync(
    '/usr/local/bin/docker',
    ['--host', `unix://${socket}`, 'ps', '-a', '--filter', `label=genswarms.swarm=${swarm}`, '--format', '{{.Names}} {{.State}}'],
    { shell: false, encoding: 'utf8' },
  );
  return r.stdout.split('\n').filter((l) => l.trim() !== '');
}

export interface FigureRow {
  readonly target: string;
  readonly measure: string;
  readonly value: number;
  readonly goal?: string;
  readonly ok: boolean;
}

/**
 * In a battery run (GENSWARMS_FAULTS_ROWS = a directory), each spec writes its rows to `<dir>/<file>.json`;
 * tools/reliability/faults-kill.cjs merges them into results/faults-kill.json. Outside a battery run: nothing.
 */
export function recordFigures(file: string, rows: readonly FigureRow[]): void {
  const dir = process.env['GENSWARMS_FAULTS_ROWS'];
  if (dir === undefined || dir === '') return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${file}.json`), `${JSON.stringify(rows, null, 2)}\n`);
}

const SERVER_MAIN = join(resolve(__dirname, '../../../..'), 'apps/server/dist/main.js');

/**
 * The fault specs' server: the agent and the server built once, a fresh base directory (`prefix`…, 0711 so a root
 * server's agents reach their dirs below it; `configs/` 0700), the built server started on a free port.
 */
export async function startFaultServer(prefix: string): Promise<{ base: string; server: ServerUnderTest }> {
  const root = resolve(__dirname, '../../../..');
  const built = buildOnce([join(root, 'apps/agent/tsconfig.lib.json'), join(root, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  chmodSync(base, 0o711); // search only: a root server runs its agents as the agent uid, below this directory
  mkdirSync(join(base, 'configs'), { mode: 0o700 });
  const server = new ServerUnderTest(SERVER_MAIN, base, await freePort());
  await server.start();
  return { base, server };
}

/** Stops what a fault spec left (each swarm deleted, the server killed, its tmux server ended), records the figures, removes the base. */
export async function stopFaultServer(
  base: string | undefined,
  server: ServerUnderTest | undefined,
  figuresFile: string,
  figures: readonly FigureRow[],
): Promise<void> {
  if (base === undefined) return; // beforeAll failed before anything started
  if (server?.child !== undefined) {
    const swarms = ((await request(server.url).get('/api/swarms')).body.swarms ?? []) as Array<{ name: string }>;
    for (const s of swarms) await request(server.url).delete(`/api/swarms/${s.name}`);
  }
  await server?.kill();
  killTmuxServer(join(base, 'home'));
  recordFigures(figuresFile, figures);
  rmSync(base, { recursive: true, force: true });
}
