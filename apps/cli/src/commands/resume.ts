import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';
import { pauseSummary } from './pause';

/**
 * `resume <swarm> <agent>`: take an agent out of `needs_attention` (409 `invalid_state` otherwise).
 * `resume <swarm>`: unpause the swarm's docker-backed agents (the undo of `pause`).
 */
export const resumeCommand: CommandModule = {
  name: 'resume',
  register(program, deps): void {
    program
      .command('resume')
      .description('Resume an agent that needs attention, or (no agent) unpause a paused swarm')
      .argument('<swarm>', 'swarm name')
      .argument('[agent]', 'agent name')
      .option('--json', 'print the server response unchanged')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms resume demo writer     writer leaves needs_attention\n  genswarms resume demo            undo genswarms pause demo',
      )
      .action(
        deps.action(async (swarm: string, agent: string | undefined, opts: { json?: boolean }) => {
          const json = opts.json === true;
          if (agent === undefined) {
            const body = await callOp(deps, 'resumeSwarm', { params: { s: swarm } }, { json });
            if (!json) writeLine(deps.ctx.stdout, pauseSummary(swarm, body));
            return EXIT.ok;
          }
          const body = await callOp(deps, 'resumeAgent', { params: { s: swarm, a: agent } }, { json });
          if (!json) writeLine(deps.ctx.stdout, `resumed ${swarm}/${agent} (${String(body.state)})`);
          return EXIT.ok;
        }),
      );
  },
};
