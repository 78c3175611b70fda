import { join } from 'node:path';
import type { AgentConfig } from '../config/agent-config';
import type { InboxItem } from '../inbox/inbox-reader';
import { ensureRealDir, pathKind, writeFileAtomically } from '../fs/safe-fs';
import { extractAtMessages } from '../turn/at-lines';
import { writeOutboxMessages } from '../turn/outbox-writer';
import { isTurnDone, writeReceipt } from '../turn/receipt-writer';
import type { TurnResult } from '../turn/turn-result';
import type { ClientExec } from './client-exec-config';
import { formatDeliveryText } from './delivery-text';
import { runClient } from './run-client';

/**
 * Longest message put on the client's command line (bytes of UTF-8): Linux refuses one argv word over
 * 128 KiB (MAX_ARG_STRLEN). A longer one is written to `<turn>/message.md` and the prompt points there.
 */
export const PROMPT_CONTENT_MAX_BYTES = 96 * 1024;

/**
 * One turn of a headless coding client (docs/agent.md "Running a coding client per turn"): the delivery text
 * as the client's prompt, the client run once in the workspace. Its own receipt (reply.md, then done.json,
 * as the prompt asks) ends the turn; a client that exits without done.json gets one from the driver — exit
 * 0 with an answer on stdout: that answer is the reply (its `@name:` lines sent, as genswarms-agent does),
 * and a reply.md the client wrote is kept; anything else: an error receipt naming the exit and its last
 * error line.
 */
export async function runClientTurn(
  config: AgentConfig,
  exec: ClientExec & { readonly env: Readonly<Record<string, string>> },
  item: InboxItem,
  ctx: { signal: AbortSignal; outboxCounter: { next: number }; log: (line: string) => void; deadlineMs?: number },
): Promise<TurnResult> {
  if (await isTurnDone(config.turnsDir, item.turn)) return { kind: 'already_done' };
  const prompt = formatDeliveryText({
    turnId: item.turn,
    seq: item.seq,
    from: item.from,
    content: await contentForPrompt(config, item),
    clientTurnsDir: config.turnsDir,
  });
  const run = await runClient({
    argv: [...exec.argv, prompt],
    env: exec.env,
    cwd: config.workspace,
    signal: ctx.signal,
    isDone: () => isTurnDone(config.turnsDir, item.turn),
    ...(ctx.deadlineMs === undefined ? {} : { deadlineMs: ctx.deadlineMs }),
    log: ctx.log,
  });
  if (run.kind === 'aborted') return { kind: 'aborted' };
  if (await isTurnDone(config.turnsDir, item.turn)) return { kind: 'receipt_by_client' };
  const error = failureOf(exec.client, run);
  if (error !== undefined) {
    await writeReceipt(config.turnsDir, item.turn, { kind: 'error', error });
    return { kind: 'answered', status: 'error', outbox: 0, detail: error };
  }
  const answer = run.kind === 'exited' ? run.stdout.trim() : '';
  const keepReply = (await pathKind(join(config.turnsDir, item.turn, 'reply.md'))) === 'other';
  const outbox = keepReply ? 0 : await writeOutboxMessages(config.workspace, extractAtMessages(answer, config.topology), ctx.outboxCounter);
  await writeReceipt(config.turnsDir, item.turn, keepReply ? { kind: 'ok' } : { kind: 'ok', reply: answer });
  return {
    kind: 'answered',
    status: 'ok',
    outbox,
    detail: keepReply ? 'done.json written for the reply.md the client left' : 'reply from the client output',
  };
}

/** The error for the receipt, or undefined when the run gave an answer (exit 0 and something on stdout). */
function failureOf(client: string, run: Exclude<Awaited<ReturnType<typeof runClient>>, { kind: 'aborted' }>): string | undefined {
  switch (run.kind) {
    case 'timed_out':
      return `${client} did not finish within the turn timeout`;
    case 'spawn_failed':
      return `${client} could not be started: ${run.reason}`;
    case 'exited': {
      const how = run.signal !== null ? `was killed by ${run.signal}` : `exited with code ${String(run.code)}`;
      const last = run.lastError === '' ? '' : `: ${run.lastError}`;
      if (run.code !== 0 || run.signal !== null) return `${client} ${how}${last}`;
      return run.stdout.trim() === '' ? `${client} finished without an answer and without a receipt${last}` : undefined;
    }
  }
}

/** The item's content, or (too long for an argv word) a pointer to `<turn>/message.md`, written 0600. */
async function contentForPrompt(config: AgentConfig, item: InboxItem): Promise<string> {
  const bytes = Buffer.byteLength(item.content, 'utf8');
  if (bytes <= PROMPT_CONTENT_MAX_BYTES) return item.content;
  const dir = join(config.turnsDir, item.turn);
  if (!(await ensureRealDir(dir))) throw new Error('turn directory is not a real directory');
  await writeFileAtomically(dir, 'message.md', item.content);
  return `(The message is ${bytes} bytes, too long to show here: read it from ${dir}/message.md.)`;
}
