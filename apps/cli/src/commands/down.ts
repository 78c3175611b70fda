import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { ensureHome, isAlive, readPid, removePid } from '../daemon/home';
import { removeServerUrl } from '../daemon/server-url';

/** `down` waits this long after SIGTERM (docs/cli.md). */
export const DOWN_WAIT_MS = 10_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `down`: SIGTERM the pid in server.pid, wait up to 10 s, remove server.pid and server.url. */
export const downCommand: CommandModule = {
  name: 'down',
  register(program, deps): void {
    program
      .command('down')
      .description('Stop the server started by `genswarms up`')
      .addHelpText('after', '\nExample:\n  genswarms down')
      .action(
        deps.action(async () => {
          const home = await ensureHome(deps.ctx.env, deps.ctx.cwd);
          const pid = await readPid(home);
          if (pid === undefined || !isAlive(pid)) {
            await removePid(home);
            await removeServerUrl(home);
            writeLine(deps.ctx.stdout, 'genswarms: not running');
            return EXIT.ok;
          }
          process.kill(pid, 'SIGTERM');
          const deadline = Date.now() + DOWN_WAIT_MS;
          while (isAlive(pid) && Date.now() < deadline) await sleep(100);
          if (isAlive(pid)) throw new CliError('stop_timeout', `server (pid ${pid}) did not stop within 10 s`, EXIT.failed);
          await removePid(home);
          await removeServerUrl(home);
          writeLine(deps.ctx.stdout, `genswarms: stopped (pid ${pid})`);
          return EXIT.ok;
        }),
      );
  },
};
