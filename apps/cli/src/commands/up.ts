import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { encodeHandover, ProcctlError, SECRET_HANDOVER_FD_ENV, SERVER_SECRET_ENV_NAMES, splitSecrets } from '@genswarms/procctl';
import { normalizeToken, parsePort, SecurityError } from '@genswarms/security';
import type { CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { ensureHome, isAlive, readPid, removePid, writePid } from '../daemon/home';
import { openServerLogPipe } from '../daemon/log-pipe';
import { removeServerUrl, writeServerUrl } from '../daemon/server-url';
import { resolveServerMain } from '../daemon/server-main';
import { waitReady } from '../daemon/wait-ready';

interface UpOptions {
  foreground?: boolean;
  port?: string;
}

/** The server gets the CLI's environment (never argv), secrets excepted (see `handOver`); `--port` wins over PORT. */
function serverEnv(ctx: CliContext, port: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...ctx.env };
  if (port === undefined) return env;
  try {
    env['PORT'] = String(parsePort(port));
  } catch (err) {
    if (err instanceof SecurityError) throw new CliError('invalid_port', `--port ${err.message}`, EXIT.usage);
    throw err;
  }
  return env;
}

/**
 * `--foreground`: this process becomes the server (execve, same pid: stdio, signals and exit code are
 * the server's), with the secrets moved out of the environment into a pipe (docs/security.md#9-secrecy-and-logs), so
 * no process is left holding them in its initial environment.
 */
function runForeground(ctx: CliContext, main: string, env: NodeJS.ProcessEnv): never {
  if (ctx.replaceProcess === undefined)
    throw new CliError('foreground_unavailable', '--foreground needs the genswarms process itself', EXIT.failed);
  try {
    return ctx.replaceProcess({ file: process.execPath, argv: [process.execPath, main], env, secretNames: SERVER_SECRET_ENV_NAMES });
  } catch (err) {
    if (err instanceof ProcctlError)
      throw new CliError('foreground_failed', `cannot become the server (${err.code}): ${err.message}`, EXIT.failed);
    throw err;
  }
}

/** The detached server's environment without secrets, and the payload it reads from its fd 3. */
function handOver(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; payload: Buffer } {
  const { clean, secrets } = splitSecrets(env, SERVER_SECRET_ENV_NAMES);
  try {
    return { env: { ...clean, [SECRET_HANDOVER_FD_ENV]: '3' }, payload: encodeHandover(secrets) };
  } catch (err) {
    if (err instanceof ProcctlError) throw new CliError('start_failed', err.message, EXIT.failed);
    throw err;
  }
}

async function runBackground(ctx: CliContext, main: string, env: NodeJS.ProcessEnv): Promise<ExitCode> {
  const home = await ensureHome(ctx.env, ctx.cwd);
  const running = await readPid(home);
  if (running !== undefined && isAlive(running)) {
    writeLine(ctx.stdout, `genswarms: already running (pid ${running})`);
    return EXIT.ok;
  }
  // a URL recorded by an earlier server is stale from here on; it is written again once this one answers.
  await removeServerUrl(home);
  const handover = handOver(env);
  const log = await openServerLogPipe(home, ctx.env);
  let exited: { code: number | null } | undefined;
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [main], {
      shell: false,
      detached: true,
      stdio: ['ignore', log.sink, log.sink, 'pipe'],
      env: handover.env,
      cwd: ctx.cwd,
    });
  } finally {
    log.release(); // the server holds the write end now; were it not started, the rotator sees EOF and exits
  }
  child.on('error', () => (exited = { code: null }));
  child.on('exit', (code) => (exited = { code }));
  const pipe = child.stdio[3] as Writable | null;
  // best-effort: a server that dies before reading is reported by waitReady, not by this EPIPE.
  pipe?.on('error', () => undefined);
  pipe?.end(handover.payload);
  if (child.pid === undefined) throw new CliError('start_failed', 'could not start the server process', EXIT.failed);
  child.unref();
  await writePid(home, child.pid);
  const ready = await waitReady({
    home,
    logOffset: log.offset,
    token: normalizeToken(ctx.env['GENSWARMS_API_TOKEN']),
    exited: () => exited,
    flushed: () => log.drained(),
  });
  // a server that did not come up leaves no server.pid (the next `up` or `down` would trust it).
  if (ready.kind !== 'ready') await removePid(home);
  switch (ready.kind) {
    case 'ready':
      await writeServerUrl(home, ready.url);
      writeLine(ctx.stdout, `genswarms: server started (pid ${child.pid}) on ${ready.url}`);
      return EXIT.ok;
    case 'exited':
      if (ready.lastLine !== '') writeLine(ctx.stderr, ready.lastLine);
      throw new CliError(
        'start_failed',
        `server exited with code ${String(ready.code)}; see server.log`,
        ready.code === EXIT.usage ? EXIT.usage : EXIT.failed,
      );
    case 'timeout':
      child.kill('SIGTERM');
      throw new CliError('start_timeout', 'server did not answer within 15 s; see server.log', EXIT.failed);
  }
}

/** `up [--foreground] [--port N]`. */
export const upCommand: CommandModule = {
  name: 'up',
  register(program, deps): void {
    program
      .command('up')
      .description('Start the server (detached by default; output in $GENSWARMS_HOME/server.log, rotated by size)')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms up --port 4983      then genswarms status finds it through $GENSWARMS_HOME/server.url\n  genswarms up --foreground',
      )
      .option('--foreground', 'run attached to this terminal')
      .option('--port <n>', 'port to listen on (wins over PORT)')
      .action(
        deps.action(async (opts: UpOptions) => {
          const env = serverEnv(deps.ctx, opts.port);
          const main = resolveServerMain(deps.ctx.serverMain);
          return opts.foreground === true ? runForeground(deps.ctx, main, env) : runBackground(deps.ctx, main, env);
        }),
      );
  },
};
