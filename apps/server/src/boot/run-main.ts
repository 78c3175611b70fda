import type { Writable } from 'node:stream';
import type { ServerEnv } from '../config/load-server-config';
import { loadServerConfig } from '../config/load-server-config';
import type { RunningServer, ServerDeps } from './start-server';
import { startServer } from './start-server';

/** The process edge, injectable for tests: env, cwd, uid, streams and exit. */
export interface MainIo {
  readonly env: ServerEnv;
  readonly cwd: string;
  readonly uid: number;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly exit: (code: number) => void;
}

/** Exit code for a refused configuration (CONTRACT §1, §18). */
export const EXIT_INVALID_CONFIG = 2;

/**
 * Reads the environment once, refuses to start on any invalid variable (one stderr line, exit 2,
 * nothing bound), else starts the server. Returns the running server, or undefined after an exit.
 */
export async function runMain(io: MainIo, deps: Omit<ServerDeps, 'stdout' | 'stderr'> = {}): Promise<RunningServer | undefined> {
  const loaded = await loadServerConfig(io.env, { cwd: io.cwd, uid: io.uid });
  if (loaded.kind === 'invalid') {
    io.stderr.write(`${loaded.line}\n`);
    io.exit(EXIT_INVALID_CONFIG);
    return undefined;
  }
  try {
    return await startServer(loaded.config, { ...deps, stdout: io.stdout, stderr: io.stderr });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'start_failed';
    io.stderr.write(`genswarms: cannot listen on ${loaded.config.bindAddress}:${loaded.config.port}: ${code}\n`);
    io.exit(1);
    return undefined;
  }
}
