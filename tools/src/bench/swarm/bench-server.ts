import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../build-once/build-once';
import { onFreshPort } from '../../net/free-port';

/** The built server entry the harness runs (the real server, as `genswarms up --foreground` does). */
export const SERVER_MAIN = join(REPO_ROOT, 'apps/server/dist/main.js');
/**
 * Preloaded into the server: a bare express app in the same process, the baseline of the API measure
 * (tools/bench/bare-express.cjs; it writes its port to BARE_PORT_FILE under the server home).
 */
const BARE_EXPRESS_PRELOAD = join(REPO_ROOT, 'tools/bench/bare-express.cjs');
const BARE_PORT_FILE = 'bench-bare-express.port';
/** How long the server may take to print its listening line. */
const LISTEN_TIMEOUT_MS = 30_000;
const PORT_TRIES = 4;

export interface BenchServer {
  readonly url: string;
  readonly pid: number;
  readonly home: string;
  readonly token: string;
  /** Extra node flags the server runs with (e.g. `--cpu-prof`). */
  readonly nodeFlags: readonly string[];
  /** Port of the bare express app preloaded into the server process (undefined: it did not start). */
  barePort(): number | undefined;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

export interface BenchServerOptions {
  /** Node flags for the server process (`--cpu-prof`, `--cpu-prof-dir=…`). */
  readonly nodeFlags?: readonly string[];
  /** Agent cap per swarm (GENSWARMS_MAX_AGENTS_PER_SWARM). */
  readonly maxAgents?: number;
  /** The server entry to run (default SERVER_MAIN): another build, e.g. a before/after comparison. */
  readonly serverMain?: string;
}

/** Starts `node apps/server/dist/main.js` on a fresh port (retried on EADDRINUSE) with a private GENSWARMS_HOME. */
export async function startBenchServer(opts: BenchServerOptions = {}): Promise<BenchServer> {
  const home = mkdtempSync(join(tmpdir(), 'gs-bench-'));
  chmodSync(home, 0o711); // a root server's agents (agent uid) must reach their workspaces below it
  const token = randomBytes(24).toString('hex');
  try {
    return await onFreshPort((port) => startOn(port, home, token, opts), PORT_TRIES);
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw err;
  }
}

function startOn(port: number, home: string, token: string, opts: BenchServerOptions): Promise<BenchServer> {
  const nodeFlags = opts.nodeFlags ?? [];
  const child = spawn(process.execPath, [...nodeFlags, '--require', BARE_EXPRESS_PRELOAD, opts.serverMain ?? SERVER_MAIN], {
    shell: false,
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      PORT: String(port),
      GENSWARMS_HOME: home,
      GENSWARMS_API_TOKEN: token,
      GENSWARMS_MAX_AGENTS_PER_SWARM: String(opts.maxAgents ?? 10_000),
      GENSWARMS_BENCH_BARE_PORT_FILE: join(home, BARE_PORT_FILE),
    },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => fail(new Error(`server did not listen in ${LISTEN_TIMEOUT_MS} ms: ${err.slice(-500)}`)),
      LISTEN_TIMEOUT_MS,
    );
    const fail = (e: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(e);
    };
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-8192)));
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`server exited ${code}: ${err.slice(-500)}`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m === null) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve(handleOf(child, m[1] as string, home, token, nodeFlags));
    });
  });
}

function handleOf(child: ChildProcess, url: string, home: string, token: string, nodeFlags: readonly string[]): BenchServer {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid ?? 0,
    home,
    token,
    nodeFlags,
    barePort(): number | undefined {
      const file = join(home, BARE_PORT_FILE);
      return existsSync(file) ? Number(readFileSync(file, 'utf8')) : undefined;
    },
    api: <T>(method: string, path: string, body?: unknown) => apiWithRetry<T>(url, token, method, path, body),
    async stop(): Promise<void> {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
      // A tmux server outlives a SIGTERMed server only when swarms still run (recovery): none do here.
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * A GET that met a keep-alive connection the server was closing (the server ends idle connections after 5 s;
 * on a loaded box a poll can reuse one at that moment: `socket hang up`, ECONNRESET) is sent again, up to
 * twice; nothing else is retried (a POST or DELETE may have taken effect).
 */
async function apiWithRetry<T>(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiCall<T>(url, token, method, path, body);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (method !== 'GET' || attempt >= 2 || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw err;
    }
  }
}

/**
 * One request through node:http (no client timeout: a POST of 1,000 sandboxed agents on a loaded box can
 * take longer than fetch's 300 s header timeout).
 */
function apiCall<T>(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method,
      // A POST or DELETE is never retried, so it never reuses a kept-alive connection the server may be closing
      // at that moment (the N = 1,000 launches of a loaded box failed with `socket hang up` that way).
      ...(method === 'GET' ? {} : { agent: false }),
      headers: {
        authorization: `Bearer ${token}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': payload.length }),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, body: (text === '' ? undefined : JSON.parse(text)) as T });
        } catch (err) {
          reject(err);
        }
      });
    });
    req.end(payload);
  });
}

/** utime + stime of a process in clock ticks (USER_HZ = 100 on Linux). */
export function cpuTicksOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** Resident set size of a process in MiB. */
export function rssMibOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? 0 : Number(m[1]) / 1024;
}

/** Open descriptors of a process and the inotify watches it holds (from `/proc/<pid>/fdinfo`): what `doctor` checks the limits of. */
export function fdUsageOf(pid: number): { fds: number; inotifyWatches: number } {
  const dir = `/proc/${pid}/fd`;
  let fds = 0;
  let inotifyWatches = 0;
  for (const fd of readdirSync(dir)) {
    fds += 1;
    try {
      if (readlinkSync(join(dir, fd)) !== 'anon_inode:inotify') continue;
      inotifyWatches += readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      continue; // expected: the descriptor closed while we looked
    }
  }
  return { fds, inotifyWatches };
}
