import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import type { ResponseOf } from '@genswarms/client';
import { callOp } from '../client/call';

type PauseResult = ResponseOf<'pauseSwarm'> | ResponseOf<'resumeSwarm'>;

/** `pause: 3 container(s); skipped a, b` from a pause/resume answer. */
export function pauseSummary(swarm: string, r: PauseResult): string {
  const skipped = r.skipped.length > 0 ? `; not docker-backed, untouched: ${r.skipped.join(', ')}` : '';
  return `${swarm}: ${r.status} (${r.containers} container(s))${skipped}`;
}

/** `pause <swarm>`: freeze the containers of docker-backed agents (`resume <swarm>` unfreezes them). */
export const pauseCommand: CommandModule = {
  name: 'pause',
  register(program, deps): void {
    program
      .command('pause')
      .description('Pause the containers of the docker-backed agents of a swarm (turn timers keep running); resume <swarm> undoes it')
      .argument('<swarm>', 'swarm name')
      .option('--json', 'print the server response unchanged')
      .addHelpText('after', '\nExample:\n  genswarms pause demo && genswarms resume demo')
      .action(
        deps.action(async (swarm: string, opts: { json?: boolean }) => {
          const body = await callOp(deps, 'pauseSwarm', { params: { s: swarm } }, { json: opts.json === true });
          if (opts.json !== true) writeLine(deps.ctx.stdout, pauseSummary(swarm, body));
          return EXIT.ok;
        }),
      );
  },
};
