import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';

interface PauseResult {
  status?: unknown;
  containers?: unknown;
  skipped?: unknown;
}

/** `pause: 3 container(s); skipped a, b` from a pause/resume answer. */
export function pauseSummary(swarm: string, r: PauseResult | undefined): string {
  const skipped =
    Array.isArray(r?.skipped) && r.skipped.length > 0 ? `; not docker-backed, untouched: ${r.skipped.map(String).join(', ')}` : '';
  return `${swarm}: ${String(r?.status)} (${String(r?.containers ?? 0)} container(s))${skipped}`;
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
          const body = (await callApi(deps, 'POST', apiPath('swarms', swarm, 'pause'), { json: opts.json === true })) as
            PauseResult | undefined;
          if (opts.json !== true) writeLine(deps.ctx.stdout, pauseSummary(swarm, body));
          return EXIT.ok;
        }),
      );
  },
};
