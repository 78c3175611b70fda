import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { readTextArg } from '../cli/args';
import { oneLine, safeText } from '../cli/format';
import { isClientError } from '@genswarms/client';
import { callOp } from '../client/call';
import { failureOf } from '../client/respond';
import { followUntilInterrupted, joinSwarm } from '../stream/swarm-socket';

/** Pushes after which the agent's turns are read again (a turn ended, or the agent changed state). */
const TURN_END_PUSHES = ['turn_completed', 'needs_attention', 'agent_status'] as const;
/** How many of the agent's newest turns are searched for the task's turn. */
const TURNS_SEARCHED = 50;

interface TurnRow {
  id?: unknown;
  item_id?: unknown;
  status?: unknown;
  reason?: unknown;
  error?: unknown;
  reply_preview?: unknown;
  /** The whole reply (GET …/turns/:t); absent when read from an older server that has only the list. */
  reply?: unknown;
}

/**
 * The ended turn with its whole reply (`GET …/turns/:t`). A server without that route (404 `not_found`:
 * an older server) leaves the list row as it is — with only its preview — and says so on stderr.
 */
async function withFullReply(deps: CommandDeps, swarm: string, agent: string, t: TurnRow): Promise<TurnRow> {
  try {
    return (await deps.api().call('getTurn', { params: { s: swarm, a: agent, t: String(t.id) } })).body;
  } catch (err) {
    if (!isClientError(err, 'not_found') || err.status !== 404) throw failureOf(deps.ctx, err, false);
    writeLine(
      deps.ctx.stderr,
      'genswarms: note: this server cannot answer a whole reply (no GET .../turns/:t route); showing its first 100 characters',
    );
    return t;
  }
}

/** The ended turn of `itemId` among the agent's newest turns, or undefined while it is queued or running. */
async function endedTurn(deps: CommandDeps, swarm: string, agent: string, itemId: string): Promise<TurnRow | undefined> {
  const body = await callOp(deps, 'listTurns', { params: { s: swarm, a: agent }, query: { limit: TURNS_SEARCHED } }, { json: false });
  const turns: readonly TurnRow[] = body.turns;
  return turns.find((t) => t.item_id === itemId && t.status !== 'running');
}

/**
 * Joins the swarm before sending (so no push is missed), sends the task over REST, then re-reads the agent's
 * turns after each push about it until the task's turn has ended; Ctrl-C stops waiting (the task stays).
 */
async function sendAndWait(deps: CommandDeps, swarm: string, agent: string, task: string, json: boolean): Promise<ExitCode> {
  const { ctx } = deps;
  let check: () => void = () => undefined;
  const socket = await joinSwarm(ctx, swarm, (s) => {
    for (const push of TURN_END_PUSHES) s.on(push, (p) => (p.agent === agent ? check() : undefined));
  });
  const stop = new AbortController();
  ctx.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  let ended: TurnRow | undefined;
  let failure: unknown;
  try {
    const sent = await callOp(deps, 'sendTask', { params: { s: swarm, a: agent }, body: { task } }, { json });
    const itemId = sent.id;
    if (!json) writeLine(ctx.stdout, `sent task ${itemId} to ${swarm}/${agent} (queued ${sent.queued}); waiting for its turn`);
    let busy = false;
    let again = false; // a push during a read: read once more after it
    check = () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      again = false;
      endedTurn(deps, swarm, agent, itemId)
        .then((t) => {
          busy = false;
          if (t !== undefined) {
            ended = t;
            stop.abort();
          } else if (again) check();
        })
        .catch((err: unknown) => {
          failure = err;
          stop.abort();
        });
    };
    check(); // the turn may have ended before the first push was handled
    await followUntilInterrupted(socket, stop.signal);
  } finally {
    socket.close();
  }
  if (failure !== undefined) throw failure;
  if (ended === undefined) throw new CliError('wait_interrupted', 'stopped waiting; the task stays with the agent', EXIT.failed);
  return printTurn(deps, await withFullReply(deps, swarm, agent, ended), json);
}

function printTurn(deps: CommandDeps, t: TurnRow, json: boolean): ExitCode {
  if (json) {
    writeLine(deps.ctx.stdout, JSON.stringify(t));
    return t.status === 'completed' ? EXIT.ok : EXIT.failed;
  }
  const status = oneLine(String(t.status), 32);
  if (t.status !== 'completed') {
    const why = typeof t.reason === 'string' ? t.reason : typeof t.error === 'string' ? t.error : `the turn ended ${status}`;
    throw new CliError(`turn_${status}`, `turn ${oneLine(String(t.id), 64)}: ${oneLine(why, 1000)}`, EXIT.failed);
  }
  const id = oneLine(String(t.id), 64);
  if ('reply' in t) {
    // Agent-written text: control characters neutralised, never interpreted.
    writeLine(deps.ctx.stdout, `turn ${id} completed; reply:`);
    writeLine(deps.ctx.stdout, typeof t.reply === 'string' ? safeText(t.reply.trimEnd()) : '');
    return EXIT.ok;
  }
  writeLine(deps.ctx.stdout, `turn ${id} completed; reply (its first 100 characters):`);
  writeLine(deps.ctx.stdout, typeof t.reply_preview === 'string' ? safeText(t.reply_preview) : '');
  return EXIT.ok;
}

/** `task <swarm> <agent> <text...> [--wait]`: queue a task (`-` reads the text from stdin); `--wait` prints its turn's reply. */
export const taskCommand: CommandModule = {
  name: 'task',
  register(program, deps): void {
    program
      .command('task')
      .description('Send a task to an agent (text "-" reads stdin); --wait waits for its turn and prints the reply')
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .argument('<text...>', 'the task; a single "-" reads it from stdin')
      .option('--wait', 'wait (socket.io pushes) until the turn of this task ends and print its whole reply; exit 1 if it did not complete')
      .option('--json', 'print the server response unchanged (with --wait, then the ended turn with its reply as one JSON line)')
      .addHelpText(
        'after',
        `
Examples:
  genswarms task demo writer write a haiku about tmux
  echo "summarise notes.md" | genswarms task demo writer - --wait`,
      )
      .action(
        deps.action(async (swarm: string, agent: string, words: string[], opts: { json?: boolean; wait?: boolean }) => {
          const task = await readTextArg(deps.ctx, words, 'the task');
          const json = opts.json === true;
          if (opts.wait === true) return sendAndWait(deps, swarm, agent, task, json);
          const body = await callOp(deps, 'sendTask', { params: { s: swarm, a: agent }, body: { task } }, { json });
          if (!json) writeLine(deps.ctx.stdout, `sent task ${body.id} to ${swarm}/${agent} (queued ${body.queued})`);
          return EXIT.ok;
        }),
      );
  },
};
