/**
 * The long swarm-wide commands (start, restart, scale, stop) share one shape: one request the server answers
 * when it is done with every agent, progress every few seconds meanwhile, and — when a live server gives no
 * answer — following the swarm by name until its agents settle.
 */
import type { CallArgs, OperationId } from '@genswarms/client';
import type { CommandDeps } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT, type ExitCode } from '../cli/exit-codes';
import { sleep } from '../cli/sleep';
import type { ApiAnswer } from '../client/api-client';
import { pollAgents, requestWhileAlive } from '../client/long-request';
import { STUCK_STATES, stuckAgentLines } from '../view/agent-failures';
import type { AgentStatusView } from '../view/agent-table';
import {
  READY_STATES,
  STOPPED_STATES,
  countIn,
  progressWriter,
  waitingLine,
  type ProgressWriter,
  type SwarmGoal,
} from '../view/swarm-progress';

/** How long a followed swarm is shown before handing back (its agents keep settling server-side). */
export const FOLLOW_WAIT_MS = 120_000;
const FOLLOW_POLL_MS = 500;

/** A long request's outcome: its answer, or `undefined` when a live server did not answer (the work goes on). */
export interface SwarmRequestOutcome<Op extends OperationId> {
  readonly answer: ApiAnswer<Op> | undefined;
  readonly progress: ProgressWriter;
}

/**
 * Sends `op` once for `swarm`, showing progress toward `goal` on stderr while it is not answered. A live server
 * that gives no answer is said so on stderr (`<swarm>: the <what> request got no answer but the server is up`).
 */
export async function sendSwarmRequest<Op extends OperationId>(
  deps: CommandDeps,
  op: Op,
  args: CallArgs<Op>,
  opts: { swarm: string; json: boolean; goal: SwarmGoal; what: string },
): Promise<SwarmRequestOutcome<Op>> {
  const progress = progressWriter(deps);
  const outcome = await requestWhileAlive(deps, op, args, {
    swarm: opts.swarm,
    json: opts.json,
    onWait: (poll) => progress.show(waitingLine(opts.swarm, poll, opts.goal)),
  }).catch((err: unknown) => {
    progress.end();
    throw err;
  });
  progress.end();
  if (outcome.kind === 'answered') return { answer: outcome.answer, progress };
  writeLine(deps.ctx.stderr, `${opts.swarm}: the ${opts.what} request got no answer but the server is up: following the swarm`);
  return { answer: undefined, progress };
}

/** How a followed swarm settles: `purge` waits for a stopped swarm to be gone; `restarting` waits past `stopped` (an agent between its stop and its start). */
interface FollowMode {
  readonly purge?: boolean;
  readonly restarting?: boolean;
}

/** Is this look the end of the wait? A swarm no longer listed ends a stop (it is gone, or purged). */
function isSettled(goal: SwarmGoal, agents: readonly AgentStatusView[] | undefined, mode: FollowMode): boolean {
  if (goal === 'stopped') return agents === undefined || (mode.purge !== true && countIn(agents, STOPPED_STATES) === agents.length);
  const settles = (state: string): boolean =>
    READY_STATES.has(state) || (STUCK_STATES.has(state) && !(mode.restarting === true && state === 'stopped'));
  return agents !== undefined && agents.every((a) => settles(String(a.state)));
}

/** Polls the agents until `goal` is reached, FOLLOW_WAIT_MS ends or the user interrupts; the last look (undefined: not listed). */
async function followAgents(
  deps: CommandDeps,
  swarm: string,
  goal: SwarmGoal,
  progress: ProgressWriter,
  mode: FollowMode,
): Promise<{ agents: readonly AgentStatusView[] | undefined; settled: boolean }> {
  const deadline = Date.now() + FOLLOW_WAIT_MS;
  let agents: readonly AgentStatusView[] | undefined;
  let settled = false;
  try {
    for (;;) {
      const poll = await pollAgents(deps, swarm);
      progress.show(waitingLine(swarm, poll, goal));
      if (poll.kind === 'agents') agents = poll.agents;
      if (poll.kind === 'not_yet') agents = undefined;
      settled = poll.kind !== 'busy' && isSettled(goal, agents, mode);
      if (settled || Date.now() >= deadline || !(await sleep(FOLLOW_POLL_MS, deps.ctx.signal))) break;
    }
  } finally {
    progress.end();
  }
  return { agents, settled };
}

/**
 * Follows `swarm` until every agent is ready or stuck (failed, stopped, needs_attention). Exit 1 (`agent_failed`,
 * one block per agent with the server's code and sentence) when any agent is stuck at that point, else 0 with
 * `<done> <swarm>: k/N agents ready` (those still starting keep starting server-side). A swarm not listed yet and
 * a busy server are waited for; only a server that answers nothing is unreachable.
 */
export async function followUntilReady(
  deps: CommandDeps,
  swarm: string,
  opts: { json: boolean; progress: ProgressWriter; done: string; failed: string; restarting?: boolean },
): Promise<ExitCode> {
  const out = opts.json ? deps.ctx.stderr : deps.ctx.stdout; // --json keeps stdout to the one server body
  const seen = await followAgents(deps, swarm, 'ready', opts.progress, { restarting: opts.restarting === true });
  const agents = seen.agents ?? [];
  const stuck = await stuckAgentLines(deps, swarm, agents);
  if (stuck.length > 0) {
    const count = countIn(agents, STUCK_STATES);
    throw new CliError(
      'agent_failed',
      `${count} agent(s) of ${swarm} did not ${opts.failed}; see genswarms status ${swarm}`,
      EXIT.failed,
      stuck,
    );
  }
  const tail = seen.settled ? '' : ' so far; follow with genswarms watch ' + swarm;
  writeLine(out, `${opts.done} ${swarm}: ${countIn(agents, READY_STATES)}/${agents.length} agents ready${tail}`);
  return EXIT.ok;
}

/** Follows a stop: `<swarm>: stopped` once every agent is stopped (with purge: `purged` once the swarm is no longer listed); exit 0. */
export async function followUntilStopped(
  deps: CommandDeps,
  swarm: string,
  opts: { json: boolean; progress: ProgressWriter; purge: boolean },
): Promise<ExitCode> {
  const out = opts.json ? deps.ctx.stderr : deps.ctx.stdout;
  const seen = await followAgents(deps, swarm, 'stopped', opts.progress, { purge: opts.purge });
  const agents = seen.agents ?? [];
  if (seen.settled) writeLine(out, `${swarm}: ${opts.purge ? 'purged' : 'stopped'}`);
  else
    writeLine(
      out,
      `${swarm}: stopping, ${countIn(agents, STOPPED_STATES)}/${agents.length} agents stopped so far; see genswarms status ${swarm}`,
    );
  return EXIT.ok;
}
