import { join } from 'node:path';
import type { AgentConfig } from '../config/agent-config';
import { listInbox, readInboxItem } from '../inbox/inbox-reader';
import type { InboxEntry, InboxItem } from '../inbox/inbox-reader';
import { loadAgentState, saveAgentState } from '../state/agent-state';
import { runTurn } from '../turn/run-turn';
import type { TurnResult } from '../turn/run-turn';

/** Inbox poll interval (ms). Latency target: a task starts within a quarter second. */
export const INBOX_POLL_MS = 200;
/** Characters of task content shown in a log line. */
export const LOG_PREVIEW_CHARS = 100;

export interface AgentLoopOptions {
  readonly signal: AbortSignal;
  /** One line, no trailing newline. Never given secrets; content is cut to LOG_PREVIEW_CHARS. */
  readonly log: (line: string) => void;
  readonly pollMs?: number;
}

/**
 * Polls `<workspace>/.inbox` and answers each item once, in seq order, until `signal` aborts.
 * Progress is the state watermark, saved after each item; done.json guards the crash window in between.
 */
export async function runAgent(config: AgentConfig, options: AgentLoopOptions): Promise<void> {
  const { signal, log } = options;
  const inboxDir = join(config.workspace, '.inbox');
  let watermark = await initialWatermark(config.workspace, log);
  const outboxCounter = { next: 0 };
  let lastProblem = '';
  const report = (problem: string): void => {
    if (problem !== lastProblem) log(problem); // a persistent problem is logged once, not every poll
    lastProblem = problem;
  };
  while (!signal.aborted) {
    try {
      const listing = await listInbox(inboxDir);
      if (listing.kind === 'unsafe') report(`inbox ignored: ${listing.detail}`);
      if (listing.kind === 'ok') {
        for (const entry of listing.entries) {
          if (entry.seq <= watermark) continue;
          if (signal.aborted || !(await handleEntry(config, inboxDir, entry, { signal, log, outboxCounter }))) return;
          watermark = entry.seq;
          await saveAgentState(config.workspace, { v: 1, processedThrough: watermark });
        }
        lastProblem = '';
      }
    } catch (error) {
      report(`inbox error: ${describeError(error)}`);
    }
    await sleep(options.pollMs ?? INBOX_POLL_MS, signal);
  }
}

interface TurnContext {
  readonly signal: AbortSignal;
  readonly log: (line: string) => void;
  readonly outboxCounter: { next: number };
}

/** Handles one entry; false when the turn was aborted (stop without advancing the watermark). */
async function handleEntry(config: AgentConfig, inboxDir: string, entry: InboxEntry, ctx: TurnContext): Promise<boolean> {
  const read = await readInboxItem(inboxDir, entry);
  if (read.kind === 'skipped') {
    ctx.log(`skipped inbox file ${entry.file}: ${read.reason}`);
    return true;
  }
  const started = Date.now();
  let result: TurnResult;
  try {
    result = await runTurn(config, read.item, ctx.signal, ctx.outboxCounter, (line) => ctx.log(`${turnPrefix(read.item)} ${line}`));
  } catch (error) {
    ctx.log(`${turnPrefix(read.item)} failed: ${describeError(error)}`);
    return true; // a receipt that cannot be written now will not be writable on a retry loop either
  }
  if (result.kind === 'aborted') {
    ctx.log(`${turnPrefix(read.item)} aborted (answered after a restart unless the host ends the turn)`);
    return false;
  }
  ctx.log(describeTurn(read.item, result, Date.now() - started));
  return true;
}

function describeTurn(item: InboxItem, result: Exclude<TurnResult, { kind: 'aborted' }>, ms: number): string {
  if (result.kind === 'already_done') return `${turnPrefix(item)} already done, skipped`;
  if (result.kind === 'receipt_by_client') return `${turnPrefix(item)} receipt written by the client ${ms}ms`;
  if (result.kind === 'ended_meanwhile') return `${turnPrefix(item)} ended by the host while answering; answer dropped`;
  const detail = result.detail === undefined ? '' : ` (${result.detail})`;
  return `${turnPrefix(item)} ${result.status} outbox=${Math.max(result.outbox, 0)} ${ms}ms${detail} content=${preview(item.content)}`;
}

function turnPrefix(item: InboxItem): string {
  return `turn ${item.turn} seq=${item.seq} from=${item.from}`;
}

function preview(content: string): string {
  return JSON.stringify(content.length > LOG_PREVIEW_CHARS ? `${content.slice(0, LOG_PREVIEW_CHARS)}…` : content);
}

async function initialWatermark(workspace: string, log: (line: string) => void): Promise<number> {
  const state = await loadAgentState(workspace);
  if (state.kind === 'ok') return state.state.processedThrough;
  // Starting over is safe: finished turns have a done.json and are skipped, never answered twice.
  if (state.kind === 'invalid') log(`agent state unreadable (${state.reason}); rescanning the inbox`);
  return 0;
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : 'unknown error');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
