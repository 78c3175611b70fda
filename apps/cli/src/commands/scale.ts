import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { parseIntArg } from '../cli/args';
import { followUntilReady, sendSwarmRequest } from './swarm-follow';

/** Upper bound of a scale count; the server's agent cap (≤ 100000) is the real limit. */
const SCALE_MAX_COUNT = 100000;

const list = (v: readonly string[]): string => (v.length === 0 ? '-' : v.join(','));

/**
 * `scale <swarm> <base> <count>`: `count` is an integer ≥ 0 (digits only), else exit 2 before any request. The
 * answer comes once every instance was added or removed: progress is shown meanwhile, and a live server that
 * gives no answer is followed until the swarm's agents are ready (as `start`).
 */
export const scaleCommand: CommandModule = {
  name: 'scale',
  register(program, deps): void {
    program
      .command('scale')
      .description('Scale <base> to <count> instances (<base>_1 … <base>_N)')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms scale demo worker 5       worker_1 … worker_5\n  genswarms scale demo worker 0       removes them all',
      )
      .argument('<swarm>', 'swarm name')
      .argument('<base>', 'base agent name')
      .argument('<count>', 'instance count, an integer >= 0')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, base: string, rawCount: string, opts: { json?: boolean }) => {
          const count = parseIntArg(rawCount, 'count', { min: 0, max: SCALE_MAX_COUNT }, 'invalid_count');
          const params = { s: swarm, base };
          const json = opts.json === true;
          const sent = await sendSwarmRequest(
            deps,
            'scaleAgents',
            { params, body: { count } },
            { swarm, json, goal: 'ready', what: 'scale' },
          );
          if (sent.answer === undefined)
            return followUntilReady(deps, swarm, { json, progress: sent.progress, done: 'scaled', failed: 'start' });
          if (json) return EXIT.ok;
          const r = sent.answer.body.result;
          writeLine(deps.ctx.stdout, `scaled ${swarm}/${base} to ${count}: added ${list(r.added)} removed ${list(r.removed)}`);
          for (const f of r.failed) writeLine(deps.ctx.stdout, `  failed ${f.name}: ${f.reason}`);
          return r.failed.length > 0 ? EXIT.failed : EXIT.ok;
        }),
      );
  },
};
