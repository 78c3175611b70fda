import type { SocketPush, SwarmSocket } from '@genswarms/client';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import { EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { emitChecked, followUntilInterrupted, joinSwarm } from '../stream/swarm-socket';
import { swarmDetailLines } from '../view/agent-table';
import type { SwarmDetailView } from '../view/agent-table';
import { CLEAR_SCREEN, terminalOf } from '../view/terminal';

/** Pushes that change what the table shows; each one asks for the status again (over the socket, never by polling). */
export const WATCH_REFRESH_PUSHES: readonly SocketPush[] = [
  'agent_status',
  'turn_completed',
  'needs_attention',
  'agent_added',
  'agent_removed',
  'swarm_started',
  'swarm_stopped',
  'topology_changed',
  'message_routed',
  'message_broadcast',
  'event',
];
/** Pushes arriving within this window share one status request (a start of 1000 agents sends thousands). */
export const WATCH_COALESCE_MS = 100;
/** On a TTY the ages (turn, last activity) are redrawn this often from the last status, without asking the server. */
export const WATCH_TICK_MS = 1000;

/** Asks for the status when pushes arrive: at most one request in flight, pushes during it coalesce into one more. */
function refresher(socket: SwarmSocket, show: (detail: SwarmDetailView) => void, fail: (err: unknown) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let inFlight = false;
  let again = false;
  const run = async (): Promise<void> => {
    inFlight = true;
    try {
      const ack = await emitChecked(socket, 'get_status', {});
      show(ack.status);
    } catch (err) {
      fail(err);
    } finally {
      inFlight = false;
    }
    if (again) schedule();
  };
  const schedule = (): void => {
    again = false;
    if (inFlight) {
      again = true;
      return;
    }
    if (timer === undefined)
      timer = setTimeout(() => {
        timer = undefined;
        void run();
      }, WATCH_COALESCE_MS);
  };
  return schedule;
}

async function watchSwarm(deps: CommandDeps, swarm: string): Promise<ExitCode> {
  const { ctx } = deps;
  const term = terminalOf(ctx.stdout, ctx.env);
  let last: SwarmDetailView | undefined;
  let shown = '';
  const draw = (): void => {
    if (last === undefined) return;
    const lines = swarmDetailLines(term, last, Date.now());
    if (term.tty) {
      ctx.stdout.write(`${CLEAR_SCREEN}${lines.join('\n')}\n\nwatching ${swarm}, live from the server; Ctrl-C to quit\n`);
      return;
    }
    const textNow = lines.join('\n');
    if (textNow === shown) return; // piped: print a table only when it changed
    shown = textNow;
    ctx.stdout.write(`--- ${new Date().toISOString()}\n${textNow}\n`);
  };
  let failure: unknown;
  let schedule: () => void = () => undefined;
  const socket = await joinSwarm(ctx, swarm, (s) => {
    for (const push of WATCH_REFRESH_PUSHES) s.on(push, () => schedule());
  });
  const stop = new AbortController();
  schedule = refresher(
    socket,
    (detail) => {
      last = detail;
      draw();
    },
    (err) => {
      failure = err;
      stop.abort();
    },
  );
  ctx.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  if (ctx.signal?.aborted === true) stop.abort();
  const tick = term.tty ? setInterval(draw, WATCH_TICK_MS) : undefined;
  try {
    await emitChecked(socket, 'subscribe_events', {});
    schedule();
    await followUntilInterrupted(socket, stop.signal);
  } finally {
    if (tick !== undefined) clearInterval(tick);
    socket.close();
  }
  if (failure !== undefined) throw failure;
  return EXIT.ok;
}

/** `watch <swarm>`: the `status <swarm>` table, redrawn from socket.io pushes until Ctrl-C. */
export const watchCommand: CommandModule = {
  name: 'watch',
  register(program, deps): void {
    program
      .command('watch')
      .description('The per-agent table of a swarm, updated live from socket.io pushes until Ctrl-C')
      .argument('<swarm>', 'swarm name')
      .addHelpText(
        'after',
        `
On a terminal the table is redrawn in place; piped, a new table (after a "--- <time>" line) is printed
each time it changes.

Examples:
  genswarms watch demo
  genswarms watch demo | tee watch.log`,
      )
      .action(deps.action(async (swarm: string) => watchSwarm(deps, swarm)));
  },
};
