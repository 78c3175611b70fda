import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../src/index';

export function tempDir(prefix: string): { path: string; cleanup: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

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

/** Runs the CLI in-process with the given env only (never this process's env). */
export async function cli(argv: string[], env: Record<string, string | undefined>, extra: { cwd?: string; serverMain?: string } = {}): Promise<CliRun> {
  const out = capture();
  const err = capture();
  const code = await runCli(argv, { env, cwd: extra.cwd ?? tmpdir(), stdout: out.stream, stderr: err.stream, serverMain: extra.serverMain });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** A real HTTP server on port 0 that records request headers and answers with `reply`. */
export async function captureServer(reply: (path: string) => { status: number; body: unknown }): Promise<{ url: string; headers: IncomingHttpHeaders[]; close: () => Promise<void> }> {
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
    close: () => new Promise((resolve) => {
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
