import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A port free a moment ago; the caller starts its server on it again after a kill -9 (same URL). */
export { freePort } from '@genswarms/tools';

/** Starts the built server (`main`) on `port` over `base/home`, resolving once it listens. */
export function startServerProcess(main: string, base: string, port: number, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: base,
    PORT: String(port),
    GENSWARMS_HOME: join(base, 'home'),
    GENSWARMS_SWARM_CONFIG_DIR: join(base, 'configs'),
    ...extraEnv,
  };
  const proc = spawn(process.execPath, [main], { cwd: base, env, shell: false, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('listening on')) done(proc);
    });
    proc.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    proc.once('error', fail);
    proc.once('exit', (code) => fail(new Error(`server exited ${String(code)}: ${err.slice(-2000)}`)));
  });
}

/** SIGKILL: the server gets no chance to stop anything (the crash recovery starts from). */
export function kill9(proc: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return done();
    proc.once('exit', () => done());
    proc.kill('SIGKILL');
  });
}
