import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { parseIntArg } from '../cli/args';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';

/** Upper bound of a scale count; the server's agent cap (≤ 100000) is the real limit. */
const SCALE_MAX_COUNT = 100000;

interface ScaleResult {
  added?: unknown;
  removed?: unknown;
  failed?: Array<{ name?: unknown; reason?: unknown }>;
}

const list = (v: unknown): string => (Array.isArray(v) ? (v.length === 0 ? '-' : v.map(String).join(',')) : '-');

/** `scale <swarm> <base> <count>`: `count` is an integer ≥ 0 (digits only), else exit 2 before any request. */
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
          const path = apiPath('swarms', swarm, 'agents', base, 'scale');
          const body = (await callApi(deps, 'POST', path, { body: { count }, json: opts.json === true })) as
            { result?: ScaleResult } | undefined;
          if (opts.json === true) return EXIT.ok;
          const r = body?.result ?? {};
          writeLine(deps.ctx.stdout, `scaled ${swarm}/${base} to ${count}: added ${list(r.added)} removed ${list(r.removed)}`);
          for (const f of Array.isArray(r.failed) ? r.failed : [])
            writeLine(deps.ctx.stdout, `  failed ${String(f.name)}: ${String(f.reason)}`);
          return Array.isArray(r.failed) && r.failed.length > 0 ? EXIT.failed : EXIT.ok;
        }),
      );
  },
};
