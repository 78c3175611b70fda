import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { BenchServer } from './bench-server';

/** Concurrent requests in flight while measuring a route. */
const CONCURRENCY = 8;

export interface ListSwarmsResult {
  /** Token-gated `GET /api/swarms` of the real server, requests/s. */
  readonly rps: number;
  /** A bare node:http route serving the same body bytes, requests/s, same client, same run. */
  readonly bareRps: number;
  readonly ratio: number;
  readonly bodyBytes: number;
}

async function hammer(url: string, headers: Record<string, string>, ms: number): Promise<number> {
  let count = 0;
  const end = performance.now() + ms;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      count += 1;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return count / ((performance.now() - t0) / 1000);
}

function listen(body: Buffer): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}/` });
    }),
  );
}

/** `GET /api/swarms` against a bare route with the same body, each for `ms`, same client. */
export async function measureListSwarms(server: BenchServer, ms: number): Promise<ListSwarmsResult> {
  const auth = { authorization: `Bearer ${server.token}` };
  const sample = await fetch(`${server.url}/api/swarms`, { headers: auth });
  const body = Buffer.from(await sample.arrayBuffer());
  const bare = await listen(body);
  try {
    await hammer(bare.url, {}, Math.min(ms, 300)); // warm-up both
    await hammer(`${server.url}/api/swarms`, auth, Math.min(ms, 300));
    const bareRps = await hammer(bare.url, {}, ms);
    const rps = await hammer(`${server.url}/api/swarms`, auth, ms);
    return { rps, bareRps, ratio: rps / bareRps, bodyBytes: body.length };
  } finally {
    await new Promise((resolve) => bare.server.close(resolve));
  }
}
