import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';
import { swarmDetailLines, swarmTable } from '../view/agent-table';
import { terminalOf } from '../view/terminal';

/** `status [swarm] [--json]`: the swarm list with agents by state, or one swarm's per-agent table. */
export const statusCommand: CommandModule = {
  name: 'status',
  register(program, deps): void {
    program
      .command('status')
      .description('List swarms (agents by state), or show one swarm as a per-agent table')
      .argument('[swarm]', 'swarm name')
      .option('--json', 'print the server response unchanged')
      .addHelpText(
        'after',
        `
Examples:
  genswarms status                 every swarm, with its agents counted by state
  genswarms status demo            one row per agent: state, backend/client, network, turn and age, inbox, attention
  genswarms status demo --json     the server's answer, unchanged`,
      )
      .action(
        deps.action(async (swarm: string | undefined, opts: { json?: boolean }) => {
          const json = opts.json === true;
          const term = terminalOf(deps.ctx.stdout, deps.ctx.env);
          let lines: string[];
          if (swarm === undefined) {
            const { swarms } = await callOp(deps, 'listSwarms', {}, { json });
            if (json) return EXIT.ok;
            lines = swarms.length > 0 ? swarmTable(term, swarms) : ['no swarms'];
          } else {
            const detail = await callOp(deps, 'getSwarm', { params: { s: swarm } }, { json });
            if (json) return EXIT.ok;
            lines = swarmDetailLines(term, detail, Date.now());
          }
          for (const line of lines) writeLine(deps.ctx.stdout, line);
          return EXIT.ok;
        }),
      );
  },
};
