import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { readTextArg } from '../cli/args';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';

/** `task <swarm> <agent> <text...>`: queue a task (`-` reads the text from stdin). */
export const taskCommand: CommandModule = {
  name: 'task',
  register(program, deps): void {
    program
      .command('task')
      .description('Send a task to an agent (text "-" reads stdin)')
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .argument('<text...>', 'the task; a single "-" reads it from stdin')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, agent: string, words: string[], opts: { json?: boolean }) => {
          const task = await readTextArg(deps.ctx, words, 'the task');
          const path = apiPath('swarms', swarm, 'agents', agent, 'task');
          const body = (await callApi(deps, 'POST', path, { body: { task }, json: opts.json === true })) as
            { id?: unknown; queued?: unknown } | undefined;
          if (opts.json !== true)
            writeLine(deps.ctx.stdout, `sent task ${String(body?.id)} to ${swarm}/${agent} (queued ${String(body?.queued ?? 0)})`);
          return EXIT.ok;
        }),
      );
  },
};
