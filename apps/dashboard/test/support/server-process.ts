import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onFreshPort } from '@genswarms/tools';

const ROOT = resolve(__dirname, '..', '..', '..', '..');

export interface ServerProcess {
  readonly url: string;
  readonly base: string;
  readonly output: () => string;
  /** Stops every swarm (`token` for the API), then the server; a tmux server left behind is killed. */
  stop(token?: string): Promise<void>;
}

const TMUX_BIN = '/usr/bin/tmux';

/** Stops the swarms first: a server that stops leaves running tmux agents for the next one (docs/runners.md). */
async function stopSwarms(url: string, token: string | undefined): Promise<void> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  const res = await fetch(`${url}/api/swarms`, { headers });
  if (!res.ok) return;
  const { swarms } = (await res.json()) as { swarms: { name: string; status: string }[] };
  for (const s of swarms) if (s.status !== 'stopped') await fetch(`${url}/api/swarms/${s.name}`, { method: 'DELETE', headers });
}

/** A tmux server the test's home still holds (after a failed stop) is killed through its own socket. */
function killTmuxServer(base: string): Promise<void> {
  const socket = join(base, 'home', 'tmux', 'tmux.sock');
  if (!existsSync(socket)) return Promise.resolve();
  return new Promise((done) => {
    const p = spawn(TMUX_BIN, ['-S', socket, 'kill-server'], { shell: false, stdio: 'ignore' });
    p.once('error', () => done()); // best-effort: no tmux binary means no tmux server to kill
    p.once('exit', () => done());
  });
}

/**
 * The real server (apps/server/src/main.ts through the workspace's TypeScript loader) on 127.0.0.1 over a
 * temp GENSWARMS_HOME, started again on a new port if the probed one was taken. It serves the built
 * dashboard from `@genswarms/dashboard`'s dist.
 */
export function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  return onFreshPort((port) => startOnce(env, port));
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
    stop: async (token) => {
      // best-effort: a server that already died has no swarm to stop; the tmux kill below still runs
      await stopSwarms(url, token).catch(() => undefined);
      await new Promise<void>((done) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return done();
        const kill = setTimeout(() => proc.kill('SIGKILL'), 15000);
        proc.once('exit', () => (clearTimeout(kill), done()));
        proc.kill('SIGTERM');
      });
      await killTmuxServer(base);
      rmSync(base, { recursive: true, force: true });
    },
  };
}
