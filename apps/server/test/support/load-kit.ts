import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce, freePort } from '@genswarms/tools';
import { io as ioClient } from 'socket.io-client';
import type { Socket } from 'socket.io-client';
import { mockAgent, startEngineServer, waitFor } from './engine-server';
import { ServerUnderTest } from './fault-kit';

/** `GENSWARMS_RELIABILITY=full` (npm run reliability) runs the full sizes of docs/reliability.md "Load"; npm test runs small ones. */
export const FULL = process.env['GENSWARMS_RELIABILITY'] === 'full';

/** One results row (tools/reliability/run-load.cjs merges them into results/load.json). */
export interface LoadRow {
  readonly target: string;
  readonly measure: string;
  readonly value: number | string;
  readonly goal?: string;
  readonly ok: boolean;
}

/** In a battery run (GENSWARMS_LOAD_ROWS = a directory) writes `<dir>/<file>.json`; otherwise nothing. */
export function recordLoadRows(file: string, rows: readonly LoadRow[]): void {
  const dir = process.env['GENSWARMS_LOAD_ROWS'];
  if (dir === undefined || dir === '') return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${file}.json`), `${JSON.stringify(rows, null, 2)}\n`);
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Starts a swarm of `agents` mock agents `a0…` (reply = the task), plus `extra` agent configs, and waits
 * until every agent is idle.
 */
export async function startMockSwarm(
  url: string,
  name: string,
  agents: number,
  extra: Array<Record<string, unknown>> = [],
): Promise<string[]> {
  const names = Array.from({ length: agents }, (_, i) => `a${i}`);
  const config = { name, agents: [...names.map((n) => mockAgent(n)), ...extra] };
  const res = await fetch(`${url}/api/swarms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config }),
  });
  if (res.status !== 201) throw new Error(`swarm start answered ${res.status}: ${await res.text()}`);
  const all = agents + extra.length;
  await waitFor(
    async () => {
      const detail = await getJson(`${url}/api/swarms/${name}`);
      const list = (detail.body['agents'] ?? []) as Array<{ state: string }>;
      return list.length === all && list.every((a) => a.state === 'idle');
    },
    `${name}: ${all} agents idle`,
    { timeoutMs: 120000 },
  );
  return names;
}

/** Ids of the swarm's stored events with id > `sinceId`, oldest first (REST `since_id` pages of 1,000). */
export async function storedEventIds(url: string, swarm: string, sinceId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let since = sinceId; ;) {
    const page = await getJson(`${url}/api/swarms/${swarm}/events?since_id=${since}&limit=1000`);
    const events = page.body['events'] as Array<{ id: number }>;
    for (const e of events) ids.push(e.id);
    if (events.length < 1000) return ids;
    since = events[events.length - 1]?.id ?? since;
  }
}

/** The newest stored event id of the swarm (0 without events). */
export async function newestEventId(url: string, swarm: string): Promise<number> {
  const page = await getJson(`${url}/api/swarms/${swarm}/events?limit=1`);
  return (page.body['events'] as Array<{ id: number }>)[0]?.id ?? 0;
}

/** How a received stream of event ids compares with the stored one. */
export interface StreamCheck {
  readonly expected: number;
  readonly received: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly outOfOrder: number;
}

export function checkStream(received: readonly number[], expected: readonly number[]): StreamCheck {
  const got = new Set(received);
  let outOfOrder = 0;
  for (let i = 1; i < received.length; i += 1) if ((received[i] ?? 0) <= (received[i - 1] ?? 0)) outOfOrder += 1;
  return {
    expected: expected.length,
    received: received.length,
    lost: expected.filter((id) => !got.has(id)).length,
    duplicated: received.length - got.size,
    outOfOrder,
  };
}

/** A `/swarm` client joined to one swarm and subscribed to all its events, recording what it receives. */
export interface Recorder {
  readonly socket: Socket;
  /** Ids of the `event` pushes, in arrival order. */
  readonly eventIds: number[];
  /** `turn_completed` pushes by turn id. */
  readonly turns: Map<string, number>;
  /** `agent_output` lines, in arrival order. */
  readonly output: string[];
  /** Set once the connection closed: socket.io's reason and the WebSocket close code and reason. */
  closed?: { reason: string; code?: number; closeReason?: string };
  close(): void;
}

export async function connectRecorder(url: string, swarm: string): Promise<Recorder> {
  const socket = ioClient(`${url}/swarm`, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 20000 });
  const rec: Recorder = { socket, eventIds: [], turns: new Map(), output: [], close: () => socket.close() };
  socket.on('agent_output', (p: { content: string }) => rec.output.push(p.content));
  socket.on('event', (e: { id: number }) => rec.eventIds.push(e.id));
  socket.on('turn_completed', (p: { turn: string }) => rec.turns.set(p.turn, (rec.turns.get(p.turn) ?? 0) + 1));
  socket.on('disconnect', (reason: string, details?: unknown) => {
    const ctx = (details as { context?: { code?: unknown; reason?: unknown } } | undefined)?.context;
    rec.closed = {
      reason,
      ...(typeof ctx?.code === 'number' ? { code: ctx.code } : {}),
      ...(typeof ctx?.reason === 'string' ? { closeReason: ctx.reason } : {}),
    };
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const joined = (await socket.timeout(20000).emitWithAck('join', { swarm })) as { ok: boolean };
  const subscribed = (await socket.timeout(20000).emitWithAck('subscribe_events', {})) as { ok: boolean };
  if (!joined.ok || !subscribed.ok) throw new Error('join or subscribe_events refused');
  return rec;
}

/**
 * Stops reading the recorder's TCP socket (a client that hangs, a browser tab in the background): the
 * kernel buffers fill, then the server's. Returns the function that reads again.
 */
export function stopReading(rec: Recorder): () => void {
  // engine.io-client's websocket transport in node is a `ws` WebSocket: its pause() stops reading the TCP socket.
  const transport = (rec.socket.io.engine as unknown as { transport: { ws?: { pause(): void; resume(): void } } }).transport;
  const ws = transport.ws;
  if (ws === undefined || typeof ws.pause !== 'function') throw new Error('no ws WebSocket under the transport');
  ws.pause();
  return () => ws.resume();
}

/** The answer to one `POST …/task`. */
export interface TaskAnswer {
  readonly agent: string;
  readonly status: number;
  readonly id?: string;
  readonly queued?: number;
  readonly error?: string;
  readonly limit?: number;
}

/**
 * `clients` concurrent HTTP clients, each posting tasks one after the other, `count` in all, agent i % n
 * for task i. Network errors are answers with status 0.
 */
export async function postTasks(
  url: string,
  swarm: string,
  agents: readonly string[],
  count: number,
  clients: number,
): Promise<TaskAnswer[]> {
  const answers: TaskAnswer[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      const agent = agents[i % agents.length] ?? 'a0';
      try {
        const res = await fetch(`${url}/api/swarms/${swarm}/agents/${agent}/task`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ task: `task ${i}` }),
        });
        const body = (await res.json()) as Record<string, unknown>;
        answers.push({
          agent,
          status: res.status,
          ...(typeof body['id'] === 'string' ? { id: body['id'] } : {}),
          ...(typeof body['queued'] === 'number' ? { queued: body['queued'] } : {}),
          ...(typeof body['error'] === 'string' ? { error: body['error'] } : {}),
          ...(typeof body['limit'] === 'number' ? { limit: body['limit'] } : {}),
        });
      } catch (err) {
        const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
        answers.push({ agent, status: 0, error: String(cause?.code ?? cause?.message ?? (err as Error).message) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, count) }, worker));
  return answers;
}

/** The turns of one agent (newest first, up to 500). */
export async function turnsOf(url: string, swarm: string, agent: string): Promise<Array<{ id: string; item_id: string; status: string }>> {
  return (await getJson(`${url}/api/swarms/${swarm}/agents/${agent}/turns?limit=500`)).body['turns'] as Array<{
    id: string;
    item_id: string;
    status: string;
  }>;
}

/** Waits until every recorder has `turns` turn_completed pushes and the last stored event, stable for 300 ms. */
export async function settle(url: string, swarm: string, recorders: readonly Recorder[], turns: number, limitMs: number): Promise<void> {
  await waitFor(async () => recorders.every((r) => r.turns.size >= turns || r.closed !== undefined), `${turns} turns on every client`, {
    timeoutMs: limitMs,
  });
  let last = -1;
  await waitFor(
    async () => {
      const newest = await newestEventId(url, swarm);
      const caughtUp = recorders.every((r) => r.closed !== undefined || r.eventIds[r.eventIds.length - 1] === newest);
      const stable = caughtUp && newest === last;
      last = newest;
      if (!stable) await new Promise((r) => setTimeout(r, 300));
      return stable;
    },
    'every client caught up with the store',
    { timeoutMs: limitMs },
  );
}

/** Prometheus samples of the server (`GET /metrics`) by metric name, summing the label sets. */
export async function scrapeMetrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([^ ]+)/.exec(line);
    if (m === null || m[1] === undefined || m[3] === undefined) continue;
    out.set(m[1], (out.get(m[1]) ?? 0) + Number(m[3]));
  }
  return out;
}

/** Round to `digits` decimals (figures in rows). */
export const round = (v: number, digits = 1): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** The server under load: in npm test the in-process test server; in full mode the built server process. */
export interface LoadServer {
  readonly url: string;
  readonly home: string;
  /** What the figures' memory is of: the server process alone (full) or the jest process (npm test). */
  readonly measured: 'server process' | 'jest process';
  /** Resident memory now and its peak so far, in MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  close(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..', '..', '..');

function procMemory(pid: number | 'self'): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMiB: round(kib('VmRSS') / 1024), peakMiB: round(kib('VmHWM') / 1024) };
}

/** Full mode: builds and starts apps/server/dist/main.js on a fresh home and port; npm test: startEngineServer. */
export async function startLoadServer(full: boolean, env: Record<string, string> = {}): Promise<LoadServer> {
  if (!full) {
    const s = await startEngineServer();
    return { url: s.url, home: s.home, measured: 'jest process', memory: () => procMemory('self'), close: () => s.close() };
  }
  const built = buildOnce([join(ROOT, 'apps/agent/tsconfig.lib.json'), join(ROOT, 'apps/server/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output}`);
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-load-')));
  chmodSync(base, 0o711); // search only: a root server runs its agents as the agent uid, below this directory
  mkdirSync(join(base, 'configs'), { mode: 0o700 });
  const srv = new ServerUnderTest(join(ROOT, 'apps/server/dist/main.js'), base, await freePort(), { GENSWARMS_LOG_LEVEL: 'warn', ...env });
  await srv.start();
  const pid = srv.child?.pid ?? 0;
  return {
    url: srv.url,
    home: join(base, 'home'),
    measured: 'server process',
    memory: () => procMemory(pid),
    async close() {
      await srv.kill();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
