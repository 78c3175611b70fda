import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';

/** `fetch <swarm> [agent…] [--include-uncommitted]`: agents' git work onto `genswarms/<swarm>/<agent>` of the operator's repository. */
export const fetchCommand: CommandModule = {
  name: 'fetch',
  register(program, deps): void {
    program
      .command('fetch')
      .description("Create or update the branch genswarms/<swarm>/<agent> of the operator's repository with each agent's commits")
      .argument('<swarm>', 'swarm name')
      .argument('[agents...]', 'agents to fetch (default: every agent with a git workspace)')
      .option('--include-uncommitted', 'take the working tree too, as a commit made by the host')
      .option('--json', 'print the server response unchanged')
      .addHelpText('after', '\nExamples:\n  genswarms fetch demo\n  genswarms fetch demo dev --include-uncommitted')
      .action(
        deps.action(async (swarm: string, agents: string[], opts: { includeUncommitted?: boolean; json?: boolean }) => {
          const body = {
            ...(agents.length === 0 ? {} : { agents }),
            ...(opts.includeUncommitted === true ? { include_uncommitted: true } : {}),
          };
          const r = await callOp(deps, 'fetchGitWork', { params: { s: swarm }, body }, { json: opts.json === true });
          if (opts.json === true) return r.failed.length > 0 ? EXIT.failed : EXIT.ok;
          for (const f of r.fetched) {
            writeLine(
              deps.ctx.stdout,
              `${f.agent}: ${f.branch} -> ${f.commit.slice(0, 12)}${f.uncommitted ? ' (with uncommitted changes)' : ''}`,
            );
          }
          for (const f of r.failed) writeLine(deps.ctx.stdout, `${f.agent}: failed (${f.error}) ${oneLine(f.message)}`);
          return r.failed.length > 0 ? EXIT.failed : EXIT.ok;
        }),
      );
  },
};
