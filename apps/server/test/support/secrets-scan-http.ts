/** The secrets scan's server process and its requests (apps/server/test/secrets-scan.spec.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';

export interface Server {
  child: ChildProcess;
  log: string[];
}

/** The built server `main` run by this Node, its whole stdout+stderr (the server log) kept; resolves once it listens. */
export function startServerProcess(main: string, cwd: string, env: Record<string, string>, log: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [main], { cwd, env, shell: false, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((done, fail) => {
    const onData = (c: Buffer): void => {
      log.push(c.toString('utf8'));
      if (log.join('').includes('listening on')) done({ child, log });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`server exited ${String(code)}: ${log.join('').slice(-2000)}`)));
  });
}

/** One request on a fresh connection (agent: false): the scans block this process, so a kept-alive socket may be closed under it. */
export function freshRequest(
  port: number,
  method: string,
  path: string,
  body: string | undefined,
  token: string,
): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent: false,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}
