import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../src/index';
import { tempDir } from '@genswarms/test-kit';

/** The kit's private temp dir (mode 0700, real path), re-exported for the CLI specs that import it from here. */
export { tempDir };

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliExtra {
  cwd?: string;
  serverMain?: string;
  /** Text for `-` arguments. */
  stdin?: string;
  signal?: AbortSignal;
  /** The CLI's request timeout (default 30 s): a spec of a slow server uses less. */
  requestTimeoutMs?: number;
}

/** Runs the CLI in-process with the given env only (never this process's env). */
export async function cli(argv: string[], env: Record<string, string | undefined>, extra: CliExtra = {}): Promise<CliRun> {
  return cliLive(argv, env, extra).done;
}

export interface LiveCli {
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout matches (a follow command printed what the test waits for). */
  waitForStdout: (re: RegExp) => Promise<void>;
  /** Ends a follow command (stands in for Ctrl-C). */
  interrupt: () => void;
  done: Promise<CliRun>;
}

/** Starts the CLI in-process and hands back its live output, for follow modes. */
export function cliLive(argv: string[], env: Record<string, string | undefined>, extra: CliExtra = {}): LiveCli {
  const out = capture();
  const err = capture();
  const controller = new AbortController();
  if (extra.signal !== undefined) extra.signal.addEventListener('abort', () => controller.abort(), { once: true });
  const stdin = extra.stdin === undefined ? undefined : Readable.from([Buffer.from(extra.stdin)]);
  const done = runCli(argv, {
    env,
    cwd: extra.cwd ?? tmpdir(),
    stdout: out.stream,
    stderr: err.stream,
    stdin,
    signal: controller.signal,
    serverMain: extra.serverMain,
    ...(extra.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: extra.requestTimeoutMs }),
  }).then((code) => ({ code, stdout: out.text(), stderr: err.text() }));
  const waitForStdout = (re: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (re.test(out.text())) {
          out.stream.off('data', check);
          resolve();
        }
      };
      out.stream.on('data', check);
      void done.then((r) =>
        re.test(r.stdout) ? resolve() : reject(new Error(`exited (${r.code}) before stdout matched ${re}: ${r.stdout} ${r.stderr}`)),
      );
      check();
    });
  return { stdout: out.text, stderr: err.text, waitForStdout, interrupt: () => controller.abort(), done };
}

/** A real HTTP server on port 0 that records request headers and answers with `reply`. */
export async function captureServer(
  reply: (path: string) => { status: number; body: unknown },
): Promise<{ url: string; headers: IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    headers.push(req.headers);
    const r = reply(req.url ?? '/');
    res.writeHead(r.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(r.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    headers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `genswarms up` of the built server (`serverMain`) on a closed port, home under `dir`; resolves to the env
 * the commands of a spec run with (GENSWARMS_HOME, GENSWARMS_URL, PATH, plus `extra`). Throws when up fails.
 */
export async function upRealServer(dir: string, serverMain: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const port = await closedPort();
  const env = {
    GENSWARMS_HOME: join(dir, 'home'),
    GENSWARMS_URL: `http://127.0.0.1:${port}`,
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    ...extra,
  };
  const up = await cli(['up', '--port', String(port)], env, { cwd: dir, serverMain });
  if (up.code !== 0) throw new Error(`genswarms up failed (exit ${up.code}): ${up.stderr.slice(0, 2000)}`);
  return env;
}
