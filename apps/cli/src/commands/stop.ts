import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callApi } from '../client/call';
import { apiPath, withQuery } from '../client/paths';

/** `stop <swarm> [--purge]`: DELETE the swarm (`?purge=true` also deletes its data, docs/rest-api.md). */
export const stopCommand: CommandModule = {
  name: 'stop',
  register(program, deps): void {
    program
      .command('stop')
      .description('Stop a swarm (--purge also deletes its events, messages, overlay and default workspaces)')
      .addHelpText('after', '\nExamples:\n  genswarms stop demo\n  genswarms stop demo --purge')
      .argument('<swarm>', 'swarm name')
      .option('--purge', 'delete the swarm and its data')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, opts: { purge?: boolean; json?: boolean }) => {
          const path = withQuery(apiPath('swarms', swarm), { purge: opts.purge === true ? 'true' : undefined });
          const body = (await callApi(deps, 'DELETE', path, { json: opts.json === true })) as { status?: unknown } | undefined;
          if (opts.json !== true) writeLine(deps.ctx.stdout, `${swarm}: ${String(body?.status ?? 'stopped')}`);
          return EXIT.ok;
        }),
      );
  },
};
