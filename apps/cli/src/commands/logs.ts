import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { formatEvent, oneLine } from '../cli/format';
import { EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import type { Schemas } from '@genswarms/client';
import { callOp } from '../client/call';
import { emitChecked, followUntilInterrupted, joinSwarm } from '../stream/swarm-socket';

/** One log entry, pushed (`log_entry`) or recent (the `subscribe_logs` ack). */
type LogEntry = Schemas['LogEntry'] | Schemas['SocketPush_log_entry'];

interface LogLine {
  timestamp?: unknown;
  stream?: unknown;
  line?: unknown;
}

/** Without -f: the agent's last output lines, or (no agent) the swarm's recent events. */
async function showLogs(deps: CommandDeps, swarm: string, agent: string | undefined, json: boolean): Promise<ExitCode> {
  const out = deps.ctx.stdout;
  if (agent === undefined) {
    const body = await callOp(deps, 'swarmEvents', { params: { s: swarm } }, { json });
    if (!json) for (const e of [...body.events].reverse()) writeLine(out, formatEvent(e));
    return EXIT.ok;
  }
  const body = await callOp(deps, 'agentLogs', { params: { s: swarm, a: agent } }, { json });
  if (json) return EXIT.ok;
  const logs: readonly LogLine[] = body.logs;
  // a TUI agent (tmux pane, local pty) has a screen instead of output lines, also once its client exited
  if (logs.length === 0) return showScreen(deps, swarm, agent);
  for (const l of logs)
    writeLine(out, `${String(l.timestamp)}  ${String(l.stream)}  ${typeof l.line === 'string' ? oneLine(l.line, 4000) : ''}`);
  return EXIT.ok;
}

/** A TUI agent's screen now (scrollback and screen, plain text), or the sentence that there is nothing to show. */
async function showScreen(deps: CommandDeps, swarm: string, agent: string): Promise<ExitCode> {
  const out = deps.ctx.stdout;
  // expected: a server without the screen route, or an agent gone since its logs were read, has no screen to show
  const { screen } = await callOp(deps, 'agentScreen', { params: { s: swarm, a: agent } }, { json: false }).catch(() => ({ screen: null }));
  if (screen === null || screen.length === 0) {
    writeLine(out, 'no output lines (TUI agents: genswarms attach)');
    return EXIT.ok;
  }
  writeLine(out, `the screen of ${oneLine(agent, 64)} (a TUI agent; follow it with genswarms attach):`);
  for (const line of screen) writeLine(out, typeof line === 'string' ? oneLine(line, 4000) : '');
  return EXIT.ok;
}

/** -f: join, subscribe_logs, print the recent entries then every `log_entry` until interrupted. */
async function followLogs(deps: CommandDeps, swarm: string, agent: string | undefined, json: boolean): Promise<ExitCode> {
  const out = deps.ctx.stdout;
  const printed = new Set<number>();
  const print = (entry: LogEntry): void => {
    const { id } = entry;
    if (typeof id === 'number' && printed.has(id)) return; // also in recent_logs
    if (typeof id === 'number') printed.add(id);
    writeLine(out, json ? JSON.stringify(entry) : formatEvent(entry));
  };
  // Entries pushed before the subscribe ack is handled wait until the recent ones are printed.
  let pending: LogEntry[] | undefined = [];
  const onEntry = (entry: LogEntry): void => (pending === undefined ? print(entry) : void pending.push(entry));
  const socket = await joinSwarm(deps.ctx, swarm, (s) => s.on('log_entry', onEntry));
  const ack = await emitChecked(socket, 'subscribe_logs', agent === undefined ? {} : { agent }).catch((err: unknown) => {
    socket.close();
    throw err;
  });
  for (const entry of ack.recent_logs) print(entry);
  for (const entry of pending) print(entry);
  pending = undefined;
  await followUntilInterrupted(socket, deps.ctx.signal);
  return EXIT.ok;
}

/** `logs <swarm> [agent] [-f] [--json]`. */
export const logsCommand: CommandModule = {
  name: 'logs',
  register(program, deps): void {
    program
      .command('logs')
      .description("An agent's output lines, or a swarm's log; -f streams log entries until Ctrl-C")
      .addHelpText('after', '\nExamples:\n  genswarms logs demo writer\n  genswarms logs demo -f --json')
      .argument('<swarm>', 'swarm name')
      .argument('[agent]', 'agent name')
      .option('-f, --follow', 'stream log entries (socket.io)')
      .option('--json', 'print the server response unchanged (with -f: one JSON entry per line)')
      .action(
        deps.action(async (swarm: string, agent: string | undefined, opts: { follow?: boolean; json?: boolean }) =>
          opts.follow === true ? followLogs(deps, swarm, agent, opts.json === true) : showLogs(deps, swarm, agent, opts.json === true),
        ),
      );
  },
};
