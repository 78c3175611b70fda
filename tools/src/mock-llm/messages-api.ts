import type { AgentAnswer, Conversation } from './agent-turn';
import type { SseEvent } from './sse';
import { chunkText } from './sse';
import { isRecord, partsText } from './wire';

/**
 * Anthropic Messages API (`POST /v1/messages`, Claude Code): reads a request into a Conversation and
 * renders an answer as a message object, or as its SSE events when the request has `stream: true`.
 */

/** `messages[]` (string content, or blocks: `text`, `tool_use`, `tool_result`, …) and `tools[].name`. */
export function readMessagesRequest(body: unknown): Conversation {
  const messages = isRecord(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const userTexts: string[] = [];
  let endsWithToolResult = false;
  for (const m of messages) {
    if (!isRecord(m) || (m['role'] !== 'user' && m['role'] !== 'assistant')) continue; // Claude Code also sends role: system entries
    const blocks: unknown[] = Array.isArray(m['content']) ? m['content'] : [];
    const hasToolResult = blocks.some((b) => isRecord(b) && b['type'] === 'tool_result');
    endsWithToolResult = m['role'] === 'user' && hasToolResult;
    if (m['role'] !== 'user') continue;
    const text = partsText(m['content']);
    if (text !== '' || !hasToolResult) userTexts.push(text);
  }
  const tools = isRecord(body) && Array.isArray(body['tools']) ? body['tools'] : [];
  return {
    userTexts,
    endsWithToolResult,
    toolNames: tools.flatMap((t: unknown) => (isRecord(t) && typeof t['name'] === 'string' ? [t['name']] : [])),
  };
}

type Answer = Exclude<AgentAnswer, { kind: 'http_error' }>;

function contentBlock(answer: Answer, id: string): Record<string, unknown> {
  return answer.kind === 'text'
    ? { type: 'text', text: answer.text }
    : { type: 'tool_use', id: `toolu_${id}`, name: answer.name, input: answer.arguments };
}

const USAGE = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The message object (the non-streaming answer). */
export function messagesObject(answer: Answer, id: string, model: string): Record<string, unknown> {
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [contentBlock(answer, id)],
    stop_reason: answer.kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: USAGE,
  };
}

/** The SSE events of one answer: message_start, one content block (text or tool_use), message_delta, message_stop. */
export function messagesEvents(answer: Answer, id: string, model: string): SseEvent[] {
  const whole = messagesObject(answer, id, model);
  const block = contentBlock(answer, id);
  const start = answer.kind === 'text' ? { ...block, text: '' } : { ...block, input: {} };
  const deltas =
    answer.kind === 'text'
      ? chunkText(answer.text).map((text) => ({ type: 'text_delta', text }))
      : chunkText(JSON.stringify(answer.arguments)).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
  const events: Array<Record<string, unknown>> = [
    { type: 'message_start', message: { ...whole, content: [], stop_reason: null } },
    { type: 'content_block_start', index: 0, content_block: start },
    { type: 'ping' },
    ...deltas.map((delta) => ({ type: 'content_block_delta', index: 0, delta })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: whole['stop_reason'], stop_sequence: null }, usage: { output_tokens: 0 } },
    { type: 'message_stop' },
  ];
  return events.map((data) => ({ event: String(data['type']), data }));
}

/** An Anthropic error body. */
export function messagesError(status: number, message: string): Record<string, unknown> {
  const type =
    status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
