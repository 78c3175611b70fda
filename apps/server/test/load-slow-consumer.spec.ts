/**
 * Slow consumers: a socket.io client that stops reading its TCP socket (a real socket.io client
 * whose websocket is paused) while an agent streams output and tasks run. The server holds at most the
 * configured bound for it (engine.io's write buffer + the websocket's unsent bytes, sampled in the server
 * every 10 ms), then closes it with 4008 `slow_consumer`, which the client reads once it reads again; a normal
 * client beside it receives every output line and every event exactly once, in order.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';
import {
  checkStream,
  connectRecorder,
  FULL,
  newestEventId,
  postTasks,
  recordLoadRows,
  settle,
  startMockSwarm,
  stopReading,
  storedEventIds,
} from './support/load-kit';
import type { LoadRow, Recorder, StreamCheck } from './support/load-kit';

const LIMIT_BYTES = 524288;
/** One push may be queued after the bound was crossed (the broadcast in progress). */
const SLACK_BYTES = 65536;
/**
 * Output lines of ~4 KiB the chatty agent prints: 12 MiB (24 in full mode), past the kernel's socket buffers
 * (about 4 MiB here) and the bound, within the 45 s a paused client takes to give up on its own (ping timeout).
 */
const LINES = FULL ? 6000 : 3000;
const TASKS = FULL ? 1000 : 100;
const AGENTS = 20;
const SLOW = FULL ? 10 : 1;
const NORMAL = FULL ? 2 : 1;

/** A local agent that prints LINES numbered lines once `go` appears in its workspace, then idles. */
const CHATTY = `
while [ ! -e "$GENSWARMS_WORKSPACE/go" ]; do sleep 0.05; done
pad=$(printf '%04000d' 0)
i=0
while [ $i -lt ${LINES} ]; do printf '%s %06d\\n' "$pad" $i; i=$((i+1)); done
exec sleep 3600`;

let s: EngineServer;
const recorders: Recorder[] = [];

beforeAll(async () => {
  s = await startEngineServer({ socketMaxBufferedBytes: LIMIT_BYTES });
}, 60000);
afterAll(async () => {
  for (const r of recorders) r.close();
  await fetch(`${s.url}/api/swarms/slow/stop`, { method: 'POST' }).catch(() => undefined);
  await s.close();
});

interface ServerConn {
  writeBuffer: Array<{ data?: unknown }>;
  transport?: { socket?: { bufferedAmount?: number } };
}

/** What the server holds for one client right now: engine.io's write buffer plus the websocket's unsent bytes. */
function heldFor(id: string): number | undefined {
  const socket = s.test.server.io.of('/swarm').sockets.get(id);
  if (socket === undefined) return undefined;
  const conn = socket.conn as unknown as ServerConn;
  let bytes = conn.transport?.socket?.bufferedAmount ?? 0;
  for (const p of conn.writeBuffer) bytes += typeof p.data === 'string' ? Buffer.byteLength(p.data) : 0;
  return bytes;
}

const sum = (checks: StreamCheck[], key: 'lost' | 'duplicated' | 'outOfOrder'): number => checks.reduce((a, c) => a + c[key], 0);

/** Lines received out of their printed order, lost or twice (each line ends with its number). */
function checkOutput(lines: readonly string[]): StreamCheck {
  const numbers = lines.map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
  return checkStream(
    numbers,
    Array.from({ length: LINES }, (_, i) => i),
  );
}

it(`${SLOW} client(s) that stop reading are closed with slow_consumer at the bound; ${NORMAL} normal client(s) get everything once, in order`, async () => {
  const chatty = { name: 'chatty', backend: 'local', client: { command: ['/bin/sh', '-c', CHATTY] } };
  const agents = await startMockSwarm(s.url, 'slow', AGENTS, [chatty]);
  const normal: Recorder[] = [];
  const slow: Recorder[] = [];
  for (let i = 0; i < NORMAL; i += 1) normal.push(await connectRecorder(s.url, 'slow'));
  for (let i = 0; i < SLOW; i += 1) slow.push(await connectRecorder(s.url, 'slow'));
  recorders.push(...normal, ...slow);
  const since = await newestEventId(s.url, 'slow');
  const slowIds = slow.map((r) => r.socket.id ?? '');
  const resumers = slow.map(stopReading);
  const maxHeld = new Map<string, number>(slowIds.map((id) => [id, 0]));
  const sampler = setInterval(() => {
    for (const id of slowIds) maxHeld.set(id, Math.max(maxHeld.get(id) ?? 0, heldFor(id) ?? 0));
  }, 10);
  const started = Date.now();
  writeFileSync(join(s.home, 'workspaces', 'slow', 'chatty', 'go'), '');
  let accepted = 0;
  try {
    const answers = await postTasks(s.url, 'slow', agents, TASKS, 20);
    accepted = answers.filter((a) => a.status === 200).length;
    expect(accepted).toBe(TASKS);
    await waitFor(async () => normal.every((r) => r.output.length >= LINES), `${LINES} output lines on the normal clients`, {
      timeoutMs: 120000,
    });
    await settle(s.url, 'slow', normal, accepted, 120000);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (Date.now() - started) / 1000;
  for (const resume of resumers) resume();
  await waitFor(async () => slow.every((r) => r.closed !== undefined), 'the slow clients read their close', { timeoutMs: 40000 }).catch(
    () => undefined,
  );

  const expected = await storedEventIds(s.url, 'slow', since);
  const checks = [...normal.map((r) => checkStream(r.eventIds, expected)), ...normal.map((r) => checkOutput(r.output))];
  const dropped = slow.filter((r) => r.closed?.code === 4008 && r.closed.closeReason === 'slow_consumer').length;
  const held = Math.max(...maxHeld.values());
  const logged = (s.test.logs().match(/"message":"slow_consumer"/g) ?? []).length;
  const bad = sum(checks, 'lost') + sum(checks, 'duplicated') + sum(checks, 'outOfOrder');
  const rows: LoadRow[] = [
    { target: 'slow consumers', measure: 'output lines streamed (~4 KiB)', value: LINES, ok: true },
    { target: 'slow consumers', measure: 'tasks run', value: accepted, goal: String(TASKS), ok: accepted === TASKS },
    { target: 'slow consumers', measure: 'seconds', value: Math.round(seconds), ok: true },
    {
      target: 'slow consumers',
      measure: 'slow clients closed with 4008 slow_consumer',
      value: dropped,
      goal: String(SLOW),
      ok: dropped === SLOW,
    },
    { target: 'slow consumers', measure: 'slow_consumer log lines', value: logged, goal: String(SLOW), ok: logged === SLOW },
    {
      target: 'slow consumers',
      measure: `max bytes held for a slow client (bound ${LIMIT_BYTES})`,
      value: held,
      goal: `<= ${LIMIT_BYTES + SLACK_BYTES}`,
      ok: held <= LIMIT_BYTES + SLACK_BYTES,
    },
    {
      target: 'slow consumers',
      measure: 'normal clients: events and lines lost, duplicated or out of order',
      value: bad,
      goal: '0',
      ok: bad === 0,
    },
    {
      target: 'slow consumers',
      measure: 'normal clients disconnected',
      value: normal.filter((r) => r.closed !== undefined).length,
      goal: '0',
      ok: normal.every((r) => r.closed === undefined),
    },
  ];
  recordLoadRows('load-slow-consumer', rows);

  expect(held).toBeLessThanOrEqual(LIMIT_BYTES + SLACK_BYTES);
  expect(slow.map((r) => r.closed)).toEqual(slow.map(() => ({ reason: 'transport close', code: 4008, closeReason: 'slow_consumer' })));
  expect(logged).toBe(SLOW);
  expect(checks.every((c) => c.lost === 0 && c.duplicated === 0 && c.outOfOrder === 0)).toBe(true);
  expect(normal.every((r) => r.eventIds.length === expected.length && r.output.length === LINES)).toBe(true);
  expect(normal.every((r) => r.closed === undefined)).toBe(true);
}, 300000);
