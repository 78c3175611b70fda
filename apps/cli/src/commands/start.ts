import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { sleep } from '../cli/sleep';
import { callOp } from '../client/call';
import { loadConfigFile, resolveConfigPaths } from '../config/config-file';
import { STUCK_STATES, stuckAgentLines } from '../view/agent-failures';
import type { AgentStatusView } from '../view/agent-table';
import { CLEAR_LINE, terminalOf } from '../view/terminal';

/** How long `start` shows progress before handing back (the swarm keeps starting server-side). */
export const START_WAIT_MS = 120_000;
const START_POLL_MS = 500;
const READY_STATES: ReadonlySet<string> = new Set(['idle', 'busy']);

/** `rs: agents ready 734/1000, 2 failed` (failed counts every agent that will not become ready by waiting). */
function progressLine(swarm: string, agents: readonly AgentStatusView[]): string {
  const ready = agents.filter((a) => READY_STATES.has(String(a.state))).length;
  const stuck = agents.filter((a) => STUCK_STATES.has(String(a.state))).length;
  return `${swarm}: agents ready ${ready}/${agents.length}${stuck > 0 ? `, ${stuck} failed` : ''}`;
}

/** The progress line: rewritten in place on a TTY (stderr), one line per change when piped. */
function progressWriter(deps: CommandDeps): { show: (line: string) => void; end: () => void } {
  const tty = terminalOf(deps.ctx.stderr, deps.ctx.env).tty;
  let shown = '';
  return {
    show: (line) => {
      if (line === shown) return;
      shown = line;
      if (tty) deps.ctx.stderr.write(`${CLEAR_LINE}${line}`);
      else writeLine(deps.ctx.stderr, line);
    },
    end: () => {
      if (tty && shown !== '') deps.ctx.stderr.write('\n');
    },
  };
}

/**
 * Polls the agents until every one is ready or stuck (failed, stopped, needs_attention), the wait ends or the
 * user interrupts. Exit 1 (`agent_failed`, one block per agent with the server's code and sentence) when any
 * agent is stuck at that point, else 0 (those still starting keep starting server-side).
 */
async function waitForAgents(deps: CommandDeps, swarm: string, json: boolean): Promise<ExitCode> {
  const { ctx } = deps;
  const out = json ? ctx.stderr : ctx.stdout; // --json keeps stdout to the one server body
  const deadline = Date.now() + START_WAIT_MS;
  const progress = progressWriter(deps);
  let agents: readonly AgentStatusView[] = [];
  let settled = false;
  try {
    for (;;) {
      agents = (await callOp(deps, 'listAgents', { params: { s: swarm } }, { json: false })).agents;
      progress.show(progressLine(swarm, agents));
      settled = agents.every((a) => READY_STATES.has(String(a.state)) || STUCK_STATES.has(String(a.state)));
      if (settled || Date.now() >= deadline || !(await sleep(START_POLL_MS, ctx.signal))) break;
    }
  } finally {
    progress.end();
  }
  const ready = agents.filter((a) => READY_STATES.has(String(a.state))).length;
  const stuck = await stuckAgentLines(deps, swarm, agents);
  if (stuck.length > 0) {
    const count = agents.filter((a) => STUCK_STATES.has(String(a.state))).length;
    throw new CliError('agent_failed', `${count} agent(s) of ${swarm} did not start; see genswarms status ${swarm}`, EXIT.failed, stuck);
  }
  const tail = settled ? '' : ' so far; follow with genswarms watch ' + swarm;
  writeLine(out, `started ${swarm}: ${ready}/${agents.length} agents ready${tail}`);
  return EXIT.ok;
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
(in place on a terminal). Exit 1 if any agent failed, with the server's reason for each.

Examples:
  genswarms start swarm.yaml
  genswarms start swarm.json --no-wait --json`,
      )
      .action(
        deps.action(async (file: string, opts: { wait: boolean; json?: boolean }) => {
          const loaded = await loadConfigFile(file, deps.ctx.cwd);
          if (loaded.kind === 'invalid') throw new CliError(loaded.error, loaded.message, EXIT.failed);
          const config = resolveConfigPaths(loaded.value, loaded.dir);
          const body = await callOp(deps, 'startSwarm', { body: { config } }, { json: opts.json === true });
          const swarm = body.swarm_name;
          if (!opts.wait) {
            if (opts.json !== true) writeLine(deps.ctx.stdout, `created ${swarm}`);
            return EXIT.ok;
          }
          return waitForAgents(deps, swarm, opts.json === true);
        }),
      );
  },
};
