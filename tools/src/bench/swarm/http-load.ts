import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from '../../build-once/build-once';
import { quantile } from './primitives';

/** What one load run is asked to do: `GET path` on `port` over `connections` keep-alive sockets for `ms`. */
export interface HttpLoadSpec {
  readonly port: number;
  readonly path: string;
  /** Extra request headers (e.g. the bearer token). */
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly ms: number;
}

export interface HttpLoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH_RE = /\r\ncontent-length:\s*(\d+)/i;
const STATUS_RE = /^HTTP\/1\.1 (\d{3}) /;

/**
 * One keep-alive connection sending the same request again as soon as the previous response is complete
 * (no pipelining). Responses are framed by their Content-Length: that is all a load client needs, and it
 * keeps the client's own cost per request far below the server's.
 */
function drive(spec: HttpLoadSpec, request: Buffer, end: number, lat: number[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock: Socket = connect({ port: spec.port, host: '127.0.0.1', noDelay: true });
    let buf: Buffer = Buffer.alloc(0);
    let count = 0;
    let sentAt = 0;
    const send = (): void => {
      if (performance.now() >= end) {
        sock.end();
        resolve(count);
        return;
      }
      sentAt = performance.now();
      sock.write(request);
    };
    sock.on('connect', send);
    sock.on('error', reject);
    sock.on('data', (d: Buffer) => {
      buf = buf.length === 0 ? d : Buffer.concat([buf, d]);
      const h = buf.indexOf(HEADER_END);
      if (h === -1) return;
      const head = buf.subarray(0, h).toString('latin1');
      const length = CONTENT_LENGTH_RE.exec(head)?.[1];
      const status = STATUS_RE.exec(head)?.[1];
      if (length === undefined || status !== '200') {
        sock.destroy();
        reject(new Error(`GET ${spec.path}: status ${status ?? '?'}${length === undefined ? ', no content-length' : ''}`));
        return;
      }
      const total = h + HEADER_END.length + Number(length);
      if (buf.length < total) return;
      buf = buf.subarray(total);
      lat.push(performance.now() - sentAt);
      count += 1;
      send();
    });
  });
}

/** Runs the load in this process (the child's entry; tests). */
export async function runHttpLoad(spec: HttpLoadSpec): Promise<HttpLoadResult> {
  const extra = Object.entries(spec.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const request = Buffer.from(`GET ${spec.path} HTTP/1.1\r\nhost: 127.0.0.1:${spec.port}\r\n${extra}\r\n`, 'latin1');
  const lat: number[] = [];
  const t0 = performance.now();
  const end = t0 + spec.ms;
  const counts = await Promise.all(Array.from({ length: spec.connections }, () => drive(spec, request, end, lat)));
  const seconds = (performance.now() - t0) / 1000;
  const requests = counts.reduce((a, b) => a + b, 0);
  return { requests, seconds, rps: requests / seconds, p50Ms: quantile(lat, 0.5), p99Ms: quantile(lat, 0.99) };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The child entry (tools/bench/http-load.cjs): the spec as JSON on stdin, the result as one JSON line on stdout. */
export async function httpLoadMain(): Promise<number> {
  const spec = JSON.parse(await readStdin()) as HttpLoadSpec;
  return runHttpLoad(spec).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      return 0;
    },
    (err: unknown) => {
      process.stderr.write(`http-load: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    },
  );
}

const CHILD_ENTRY = join(REPO_ROOT, 'tools/bench/http-load.cjs');

/**
 * Runs the load from a separate process, so the client never shares an event loop with the harness.
 * The spec (it carries the token) goes through the child's stdin, never its argv or environment.
 */
export function httpLoadInChild(spec: HttpLoadSpec): Promise<HttpLoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD_ENTRY], {
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-2000)));
    child.on('error', reject);
    child.stdin.end(JSON.stringify(spec));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`http-load exited ${code}: ${err.trim()}`));
      else resolve(JSON.parse(out) as HttpLoadResult);
    });
  });
}
