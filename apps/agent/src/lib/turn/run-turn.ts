import type { AgentConfig } from '../config/agent-config';
import type { InboxItem } from '../inbox/inbox-reader';
import { produceAnswer } from './answer';
import { extractAtMessages } from './at-lines';
import { writeOutboxMessages } from './outbox-writer';
import { buildMessages } from './prompt';
import { isTurnDone, writeReceipt } from './receipt-writer';
import { runClientTurn } from '../exec/client-turn';
import type { TurnResult } from './turn-result';

export type { TurnResult } from './turn-result';

/**
 * One turn: skip if done.json exists — written by an earlier run of this agent, or by the host for a
 * turn it cancelled (stop, restart, remove): such an item is never answered; answer; check done.json
 * again (the host may have ended the turn while the model was thinking: then the answer is dropped,
 * nothing is written); write `@name:` lines to the outbox (before the receipt, so the engine's final
 * drain sees them); write reply.md (answer kept verbatim: SWARM_MSG markers are extracted by the
 * host) and done.json.
 */
export async function runTurn(
  config: AgentConfig,
  item: InboxItem,
  signal: AbortSignal,
  outboxCounter: { next: number },
  log: (line: string) => void = () => undefined,
): Promise<TurnResult> {
  const deadlineMs = turnDeadlineMs(config, item);
  const llm = config.llm;
  if (llm.kind === 'client') {
    return runClientTurn(config, llm, item, { signal, outboxCounter, log, ...(deadlineMs === undefined ? {} : { deadlineMs }) });
  }
  if (await isTurnDone(config.turnsDir, item.turn)) return { kind: 'already_done' };
  const messages = buildMessages(config, item);
  const answer = await produceAnswer(llm, messages, item.content, signal, { deadlineMs, onRetry: log });
  if (answer.kind === 'aborted') return answer;
  if (await isTurnDone(config.turnsDir, item.turn)) return { kind: 'ended_meanwhile' };
  if (answer.kind === 'error') {
    await writeReceipt(config.turnsDir, item.turn, { kind: 'error', error: answer.error });
    return { kind: 'answered', status: 'error', outbox: 0, detail: answer.error };
  }
  const outbox = await writeOutboxMessages(config.workspace, extractAtMessages(answer.text, config.topology), outboxCounter);
  await writeReceipt(config.turnsDir, item.turn, { kind: 'ok', reply: answer.text });
  return {
    kind: 'answered',
    status: 'ok',
    outbox,
    detail: outbox < 0 ? '.outbox is not a real directory: @name lines not sent' : undefined,
  };
}

/**
 * When the host's turn timeout (GENSWARMS_TURN_TIMEOUT_MS) ends this turn: the item's write time plus
 * the timeout. A timestamp that is unparsable or in the future counts from now.
 */
export function turnDeadlineMs(config: AgentConfig, item: InboxItem): number | undefined {
  if (config.turnTimeoutMs === undefined) return undefined;
  const written = Date.parse(item.timestamp);
  const now = Date.now();
  return (Number.isNaN(written) || written > now ? now : written) + config.turnTimeoutMs;
}
