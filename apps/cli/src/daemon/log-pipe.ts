import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { CliError, EXIT } from '../cli/exit-codes';
import { openServerLog } from './home';
import type { LogRotation } from './rotating-log';
import { parseLogRotation, rotateIfFull } from './rotating-log';

/** The rotator entry, `dist/daemon/log-rotator-main.js` (also found from the sources when the CLI runs unbuilt, as in its tests). */
export function resolveRotatorMain(): string {
  const candidates = [
    path.join(__dirname, 'log-rotator-main.js'),
    path.resolve(__dirname, '..', '..', 'dist', 'daemon', 'log-rotator-main.js'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (found === undefined) throw new CliError('rotator_missing', 'log rotator not found; build apps/cli first', EXIT.failed);
  return found;
}

/** Where the detached server writes: the rotator's stdin, and the offset of this start in `server.log`. */
export interface ServerLogPipe {
  /** Pass as the server's stdout and stderr; call `release` once the server is spawned. */
  readonly sink: Writable;
  /** Size of `server.log` before this start (the start's lines follow it). */
  readonly offset: number;
  release(): void;
  /** Resolves once the rotator wrote everything and exited (after the server exited), or after `ROTATOR_DRAIN_MS`. */
  drained(): Promise<void>;
}

/** How long `up` waits for the rotator to write the last lines of a server that exited at start. */
export const ROTATOR_DRAIN_MS = 2000;

function rotation(env: Readonly<Record<string, string | undefined>>): LogRotation {
  try {
    return parseLogRotation(env);
  } catch (err) {
    if (err instanceof RangeError) throw new CliError('invalid_log_rotation', err.message, EXIT.usage);
    throw err;
  }
}

/**
 * `server.log` (0600, never through a symlink) rotated by size with a bounded count (docs/observability.md):
 * a full log is rotated before the start, then a detached rotator process copies the server's output into
 * it, rotating at line boundaries, and exits when the server has exited.
 */
export async function openServerLogPipe(home: string, env: Readonly<Record<string, string | undefined>>): Promise<ServerLogPipe> {
  const limits = rotation(env);
  const file = path.join(home, 'server.log');
  await (await openServerLog(home)).close(); // creates it 0600, refuses a symlink
  rotateIfFull(file, limits);
  const log = await openServerLog(home);
  const offset = (await log.stat()).size;
  await log.close();
  const rotator = spawn(process.execPath, [resolveRotatorMain(), file, String(limits.maxBytes), String(limits.keep)], {
    shell: false,
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: {},
  });
  rotator.on('error', () => undefined); // best-effort: a rotator that cannot start leaves the server's writes failing (EPIPE), seen by waitReady as an exit
  rotator.unref();
  const exited = new Promise<void>((resolve) => rotator.once('exit', () => resolve()));
  const sink = rotator.stdin;
  if (sink === null) throw new CliError('start_failed', 'could not start the log rotator', EXIT.failed);
  return {
    sink,
    offset,
    release(): void {
      sink.destroy(); // the server holds its own copies of the pipe's write end
    },
    drained: () => Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, ROTATOR_DRAIN_MS).unref())]),
  };
}
