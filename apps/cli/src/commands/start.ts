import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { sleep } from '../cli/sleep';
import { loadConfigFile, resolveConfigPaths } from '../config/config-file';
import { STUCK_STATES, stuckAgentLines } from '../view/agent-failures';
import type { AgentStatusView } from '../view/agent-table';
import { CLEAR_LINE, terminalOf } from '../view/terminal';
import { pollAgents, requestStart, type AgentPoll } from './start-request';

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
interface ProgressWriter {
  show(line: string): void;
  end(): void;
}

function progressWriter(deps: CommandDeps): ProgressWriter {
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

/** The line for a look at the agents while the start has not answered, or while the swarm is not listed yet. */
function waitingLine(swarm: string, poll: AgentPoll): string {
  switch (poll.kind) {
    case 'agents':
      return progressLine(swarm, poll.agents);
    case 'not_yet':
      return `${swarm}: the server is planning the start`;
    case 'busy':
      return `${swarm}: the server is busy (it answers its health probe)`;
  }
}

/**
 * Polls the agents until every one is ready or stuck (failed, stopped, needs_attention), the wait ends or the
 * user interrupts. Exit 1 (`agent_failed`, one block per agent with the server's code and sentence) when any
 * agent is stuck at that point, else 0 (those still starting keep starting server-side). A swarm not listed yet
 * (a start followed by name) and a busy server are waited for; only a server that answers nothing is unreachable.
 */
async function waitForAgents(deps: CommandDeps, swarm: string, json: boolean, progress: ProgressWriter): Promise<ExitCode> {
  const { ctx } = deps;
  const out = json ? ctx.stderr : ctx.stdout; // --json keeps stdout to the one server body
  const deadline = Date.now() + START_WAIT_MS;
  let agents: readonly AgentStatusView[] = [];
  let settled = false;
  try {
    for (;;) {
      const poll = await pollAgents(deps, swarm);
      progress.show(waitingLine(swarm, poll));
      if (poll.kind === 'agents') agents = poll.agents;
      settled = poll.kind === 'agents' && agents.every((a) => READY_STATES.has(String(a.state)) || STUCK_STATES.has(String(a.state)));
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
          const progress = progressWriter(deps);
          const answer = await requestStart(deps, config, swarmNameOf(config), {
            json,
            onWait: (poll) => progress.show(waitingLine(swarmNameOf(config), poll)),
          }).catch((err: unknown) => {
            progress.end();
            throw err;
          });
          const swarm = answer.kind === 'answered' ? answer.body.swarm_name : swarmNameOf(config);
          if (answer.kind === 'unanswered') {
            progress.end();
            writeLine(deps.ctx.stderr, `${swarm}: the start request got no answer but the server is up: following the swarm`);
          }
          if (!opts.wait) {
            progress.end();
            if (!json) writeLine(deps.ctx.stdout, `${answer.kind === 'answered' ? 'created' : 'starting'} ${swarm}`);
            return EXIT.ok;
          }
          return waitForAgents(deps, swarm, json, progress);
        }),
      );
  },
};
