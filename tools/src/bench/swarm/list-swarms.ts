import { request } from 'node:http';
import type { BenchServer } from './bench-server';
import { cpuTicksOf } from './bench-server';
import { httpLoadInChild, type HttpLoadResult } from './http-load';

/** Keep-alive connections of the load client (fixed: both sides see the same client). */
export const LIST_CONNECTIONS = 8;
/** Each side is measured in this many rounds, interleaved (bare, gated, gated, bare, …) so drift hits both. */
const ROUNDS = 4;
const WARMUP_MS = 300;
const MS_PER_TICK = 10; // USER_HZ = 100

export interface ListSwarmsSide {
  readonly rps: number;
  /** Server CPU (utime + stime of the server process) per request, ms. */
  readonly cpuMsPerReq: number;
  /** Server CPU while this side ran, % of one core: near 100 means the server was the bottleneck. */
  readonly serverCpuPct: number;
  readonly p50Ms: number;
}

export interface ListSwarmsResult {
  /** Token-gated `GET /api/swarms` of the real server, requests/s. */
  readonly rps: number;
  /** A bare express route in the same server process serving the same body, requests/s, same client, same run. */
  readonly bareRps: number;
  /** rps / bareRps: the goal's ratio. */
  readonly ratio: number;
  /** Bare server CPU per request / gated: the ratio the server alone can reach, whoever saturates first. */
  readonly cpuRatio: number;
  readonly gated: ListSwarmsSide;
  readonly bare: ListSwarmsSide;
  readonly connections: number;
  readonly bodyBytes: number;
}

function putJson(port: number, path: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'PUT', headers: { 'content-type': 'application/json' } });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`PUT ${path}: ${res.statusCode}`))));
    });
    req.end(body);
  });
}

interface Sample {
  readonly load: HttpLoadResult;
  readonly ticks: number;
}

async function sampleOnce(server: BenchServer, port: number, path: string, headers: Record<string, string>, ms: number): Promise<Sample> {
  const t0 = cpuTicksOf(server.pid);
  const load = await httpLoadInChild({ port, path, headers, connections: LIST_CONNECTIONS, ms });
  return { load, ticks: cpuTicksOf(server.pid) - t0 };
}

function sideOf(samples: readonly Sample[]): ListSwarmsSide {
  const requests = samples.reduce((a, s) => a + s.load.requests, 0);
  const seconds = samples.reduce((a, s) => a + s.load.seconds, 0);
  const cpuMs = samples.reduce((a, s) => a + s.ticks * MS_PER_TICK, 0);
  const p50s = samples.map((s) => s.load.p50Ms).sort((a, b) => a - b);
  return {
    rps: requests / seconds,
    cpuMsPerReq: cpuMs / Math.max(1, requests),
    serverCpuPct: (cpuMs / (seconds * 1000)) * 100,
    p50Ms: p50s[Math.floor(p50s.length / 2)] ?? 0,
  };
}

/**
 * Token-gated `GET /api/swarms` against a bare express route serving the same body from the same server
 * process (tools/bench/bare-express.cjs), each for `ms` in interleaved rounds, driven by one load client in
 * its own process over LIST_CONNECTIONS keep-alive connections; the server's CPU per request on each side.
 */
export async function measureListSwarms(server: BenchServer, ms: number): Promise<ListSwarmsResult> {
  const barePort = server.barePort();
  if (barePort === undefined) throw new Error('the bare express baseline did not start in the server process');
  const sample = await server.api<unknown>('GET', '/api/swarms');
  const body = Buffer.from(JSON.stringify(sample.body));
  await putJson(barePort, '/bare', body);
  const apiPort = Number(new URL(server.url).port);
  type Side = { port: number; path: string; headers: Record<string, string> };
  const gatedSide: Side = { port: apiPort, path: '/api/swarms', headers: { authorization: `Bearer ${server.token}` } };
  const bareSide: Side = { port: barePort, path: '/bare', headers: {} };
  const run = (s: Side, t: number): Promise<Sample> => sampleOnce(server, s.port, s.path, s.headers, t);
  await run(bareSide, Math.min(ms, WARMUP_MS));
  await run(gatedSide, Math.min(ms, WARMUP_MS));
  const bare: Sample[] = [];
  const gated: Sample[] = [];
  const rounds = ms >= 1000 ? ROUNDS : 1; // a short smoke run: one round each
  for (let i = 0; i < rounds; i++) {
    const roundMs = Math.max(100, Math.round(ms / rounds));
    const order = i % 2 === 0 ? (['bare', 'gated'] as const) : (['gated', 'bare'] as const);
    for (const side of order) {
      if (side === 'bare') bare.push(await run(bareSide, roundMs));
      else gated.push(await run(gatedSide, roundMs));
    }
  }
  const g = sideOf(gated);
  const b = sideOf(bare);
  return {
    rps: g.rps,
    bareRps: b.rps,
    ratio: g.rps / b.rps,
    cpuRatio: g.cpuMsPerReq === 0 ? 1 : b.cpuMsPerReq / g.cpuMsPerReq,
    gated: g,
    bare: b,
    connections: LIST_CONNECTIONS,
    bodyBytes: body.length,
  };
}
