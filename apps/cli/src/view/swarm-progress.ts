import type { CommandDeps } from '../cli/command-module';
import { writeLine } from '../cli/context';
import type { AgentPoll } from '../client/long-request';
import { STUCK_STATES } from './agent-failures';
import type { AgentStatusView } from './agent-table';
import { CLEAR_LINE, terminalOf } from './terminal';

/** What a swarm-wide command waits for: every agent ready (start, restart, scale) or every agent stopped (stop). */
export type SwarmGoal = 'ready' | 'stopped';

export const READY_STATES: ReadonlySet<string> = new Set(['idle', 'busy']);
/** States an agent ends a stop in (a failed agent has no process left to stop). */
export const STOPPED_STATES: ReadonlySet<string> = new Set(['stopped', 'failed']);

export const countIn = (agents: readonly AgentStatusView[], states: ReadonlySet<string>): number =>
  agents.filter((a) => states.has(String(a.state))).length;

/** `rs: agents ready 734/1000, 2 failed` (failed counts every agent that will not become ready by waiting), or `rs: agents stopped 12/1000`. */
export function progressLine(swarm: string, agents: readonly AgentStatusView[], goal: SwarmGoal = 'ready'): string {
  if (goal === 'stopped') return `${swarm}: agents stopped ${countIn(agents, STOPPED_STATES)}/${agents.length}`;
  const stuck = countIn(agents, STUCK_STATES);
  return `${swarm}: agents ready ${countIn(agents, READY_STATES)}/${agents.length}${stuck > 0 ? `, ${stuck} failed` : ''}`;
}

/** The line for a look at the agents while the request has not answered, or while the swarm is not listed. */
export function waitingLine(swarm: string, poll: AgentPoll, goal: SwarmGoal = 'ready'): string {
  switch (poll.kind) {
    case 'agents':
      return progressLine(swarm, poll.agents, goal);
    case 'not_yet':
      return goal === 'ready' ? `${swarm}: the server is planning the start` : `${swarm}: no longer listed`;
    case 'busy':
      return `${swarm}: the server is busy (it answers its health probe)`;
  }
}

/** The progress line: rewritten in place on a TTY (stderr), one line per change when piped. */
export interface ProgressWriter {
  show(line: string): void;
  end(): void;
}

export function progressWriter(deps: CommandDeps): ProgressWriter {
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
      shown = '';
    },
  };
}
