import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { sleep } from '../cli/sleep';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';
import { loadConfigFile, resolveConfigPaths } from '../config/config-file';

/** How long `start` shows progress before handing back (the swarm keeps starting server-side). */
export const START_WAIT_MS = 120_000;
const START_POLL_MS = 500;
const READY_STATES: ReadonlySet<string> = new Set(['idle', 'busy']);
const STUCK_STATES: ReadonlySet<string> = new Set(['failed', 'stopped', 'needs_attention']);

interface AgentRow {
  name?: unknown;
  state?: unknown;
  needs_attention?: { reason?: unknown } | null;
}

function stuckLines(agents: readonly AgentRow[]): string[] {
  return agents
    .filter((a) => STUCK_STATES.has(String(a.state)))
    .map(
      (a) =>
        `  ${String(a.name)}: ${String(a.state)}${typeof a.needs_attention?.reason === 'string' ? ` (${a.needs_attention.reason})` : ''}`,
    );
}

/** Polls the agents until all are ready, one is stuck, the wait ends, or the user interrupts. */
async function waitForAgents(deps: CommandDeps, swarm: string, json: boolean): Promise<ExitCode> {
  const { ctx } = deps;
  const out = json ? ctx.stderr : ctx.stdout; // --json keeps stdout to the one server body
  const deadline = Date.now() + START_WAIT_MS;
  let shown = '';
  for (;;) {
    const body = (await callApi(deps, 'GET', apiPath('swarms', swarm, 'agents'), { json: false })) as { agents?: AgentRow[] } | undefined;
    const agents = Array.isArray(body?.agents) ? body.agents : [];
    const ready = agents.filter((a) => READY_STATES.has(String(a.state))).length;
    const line = `${swarm}: agents ready ${ready}/${agents.length}`;
    if (line !== shown) writeLine(ctx.stderr, (shown = line));
    const stuck = stuckLines(agents);
    if (stuck.length > 0)
      throw new CliError(
        'agent_failed',
        `${stuck.length} agent(s) of ${swarm} did not start; see genswarms events -s ${swarm} --errors`,
        EXIT.failed,
        stuck,
      );
    if (ready === agents.length) {
      writeLine(out, `started ${swarm}: ${ready}/${agents.length} agents ready`);
      return EXIT.ok;
    }
    if (Date.now() >= deadline || !(await sleep(START_POLL_MS, ctx.signal))) {
      writeLine(out, `started ${swarm}: ${ready}/${agents.length} agents ready so far; follow with genswarms status ${swarm}`);
      return EXIT.ok;
    }
  }
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
      .action(
        deps.action(async (file: string, opts: { wait: boolean; json?: boolean }) => {
          const loaded = await loadConfigFile(file, deps.ctx.cwd);
          if (loaded.kind === 'invalid') throw new CliError(loaded.error, loaded.message, EXIT.failed);
          const config = resolveConfigPaths(loaded.value, loaded.dir);
          const body = (await callApi(deps, 'POST', apiPath('swarms'), { body: { config }, json: opts.json === true })) as
            { swarm_name?: unknown } | undefined;
          const swarm = typeof body?.swarm_name === 'string' ? body.swarm_name : undefined;
          if (swarm === undefined || !opts.wait) {
            if (opts.json !== true) writeLine(deps.ctx.stdout, `created ${String(swarm)}`);
            return EXIT.ok;
          }
          return waitForAgents(deps, swarm, opts.json === true);
        }),
      );
  },
};
