import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { loadConfigFile, resolveConfigPaths } from '../config/config-file';
import { followUntilReady, sendSwarmRequest } from './swarm-follow';

/** The swarm name of a config as the CLI read it (the server validates it; a start of no name is refused there). */
function swarmNameOf(config: unknown): string {
  const name = typeof config === 'object' && config !== null ? (config as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

/**
 * `start <config> [--no-wait] [--json]`: reads the JSON/YAML file locally (unconfined: the operator
 * runs the CLI), makes relative `workspace`/`skills` absolute against the file's directory, and POSTs
 * `{config}`. The server validates; its `issues` are printed under the error line.
 */
export const startCommand: CommandModule = {
  name: 'start',
  register(program, deps): void {
    program
      .command('start')
      .description('Start a swarm from a local JSON or YAML config file')
      .argument('<config>', 'config file (.json, .yaml, .yml)')
      .option('--no-wait', 'return once the server accepted the swarm')
      .option('--json', 'print the server response unchanged (progress still goes to stderr)')
      .addHelpText(
        'after',
        `
Waits (up to 120 s) until every agent is ready or has failed, showing "agents ready N/M, K failed"
(in place on a terminal). Exit 1 if any agent failed, with the server's reason for each. A large swarm's
start may take the server longer than one request timeout: progress is shown meanwhile, and the server is
called unreachable only when it stops answering its health probe too.

Examples:
  genswarms start swarm.yaml
  genswarms start swarm.json --no-wait --json`,
      )
      .action(
        deps.action(async (file: string, opts: { wait: boolean; json?: boolean }) => {
          const loaded = await loadConfigFile(file, deps.ctx.cwd);
          if (loaded.kind === 'invalid') throw new CliError(loaded.error, loaded.message, EXIT.failed);
          const config = resolveConfigPaths(loaded.value, loaded.dir);
          const json = opts.json === true;
          const name = swarmNameOf(config);
          const sent = await sendSwarmRequest(
            deps,
            'startSwarm',
            { body: { config } },
            { swarm: name, json, goal: 'ready', what: 'start' },
          );
          const swarm = sent.answer?.body.swarm_name ?? name;
          if (!opts.wait) {
            if (!json) writeLine(deps.ctx.stdout, `${sent.answer === undefined ? 'starting' : 'created'} ${swarm}`);
            return EXIT.ok;
          }
          return followUntilReady(deps, swarm, { json, progress: sent.progress, done: 'started', failed: 'start' });
        }),
      );
  },
};
