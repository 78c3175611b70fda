import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';

/** `resume <swarm> <agent>`: take an agent out of `needs_attention` (409 `invalid_state` otherwise). */
export const resumeCommand: CommandModule = {
  name: 'resume',
  register(program, deps): void {
    program
      .command('resume')
      .description('Resume an agent that needs attention')
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, agent: string, opts: { json?: boolean }) => {
          const body = (await callApi(deps, 'POST', apiPath('swarms', swarm, 'agents', agent, 'resume'), { json: opts.json === true })) as
            { state?: unknown } | undefined;
          if (opts.json !== true) writeLine(deps.ctx.stdout, `resumed ${swarm}/${agent} (${String(body?.state ?? 'idle')})`);
          return EXIT.ok;
        }),
      );
  },
};
