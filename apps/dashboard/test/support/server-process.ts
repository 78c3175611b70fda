import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..', '..');

export interface ServerProcess {
  readonly url: string;
  readonly base: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

/** Attempts when another process takes the probed port first (EADDRINUSE). */
const PORT_ATTEMPTS = 5;

/** A port that was free a moment ago (PORT must be 1–65535, so port 0 cannot be used here). */
function probePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => done(port));
    });
  });
}

/**
 * The real server (apps/server/src/main.ts through the workspace's TypeScript loader) on 127.0.0.1 over a
 * temp GENSWARMS_HOME, started again on a new port if the probed one was taken. It serves the built
 * dashboard from `@genswarms/dashboard`'s dist.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, await probePort());
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !String(err).includes('EADDRINUSE')) throw err;
    }
  }
}

async function startOnce(env: Record<string, string>, port: number): Promise<ServerProcess> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gs-dash-')));
  chmodSync(base, 0o711); // a root server's agents run as the agent uid below home
  for (const d of ['home', 'configs']) mkdirSync(join(base, d), { mode: 0o700 });
  const argv = [
    '--conditions=@genswarms/source',
    '--require',
    join(ROOT, 'tools/jest/ts-register.cjs'),
    join(ROOT, 'apps/server/src/main.ts'),
  ];
  const proc: ChildProcess = spawn(process.execPath, argv, {
    cwd: base,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: base,
      PORT: String(port),
      GENSWARMS_HTTP_IP: '127.0.0.1',
      GENSWARMS_HOME: join(base, 'home'),
      GENSWARMS_SWARM_CONFIG_DIR: join(base, 'configs'),
      ...env,
    },
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    const onData = (c: Buffer): void => {
      out += c.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) done(m[1]);
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    proc.once('error', fail);
    proc.once('exit', (code) => {
      rmSync(base, { recursive: true, force: true });
      fail(new Error(`server exited ${String(code)}: ${out.slice(-2000)}`));
    });
  });
  return {
    url,
    base,
    output: () => out,
    stop: () =>
      new Promise<void>((done) => {
        const finish = (): void => {
          rmSync(base, { recursive: true, force: true });
          done();
        };
        if (proc.exitCode !== null || proc.signalCode !== null) return finish();
        const kill = setTimeout(() => proc.kill('SIGKILL'), 15000);
        proc.once('exit', () => (clearTimeout(kill), finish()));
        proc.kill('SIGTERM');
      }),
  };
}
