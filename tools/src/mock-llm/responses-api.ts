import type { AgentAnswer, Conversation } from './agent-turn';
import type { SseEvent } from './sse';
import { chunkText } from './sse';
import { isRecord, partsText } from './wire';

/**
 * OpenAI Responses API (`POST /v1/responses`, Codex): reads a request into a Conversation and renders an
 * answer as the response object, or as its SSE events when the request has `stream: true`.
 */

const TOOL_RESULT_TYPES: ReadonlySet<string> = new Set(['function_call_output', 'custom_tool_call_output']);

/** `input` (a string, or items `{type?: "message", role, content}` and tool outputs) and `tools[].name`. */
export function readResponsesRequest(body: unknown): Conversation {
  const input = isRecord(body) ? body['input'] : undefined;
  const items: unknown[] = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
  const userTexts: string[] = [];
  for (const item of items) {
    if (!isRecord(item) || item['role'] !== 'user' || (item['type'] !== undefined && item['type'] !== 'message')) continue;
    userTexts.push(partsText(item['content']));
  }
  const last = items[items.length - 1];
  const tools = isRecord(body) && Array.isArray(body['tools']) ? body['tools'] : [];
  return {
    userTexts,
    endsWithToolResult: isRecord(last) && typeof last['type'] === 'string' && TOOL_RESULT_TYPES.has(last['type']),
    toolNames: tools.flatMap((t: unknown) => (isRecord(t) && t['type'] === 'function' && typeof t['name'] === 'string' ? [t['name']] : [])),
  };
}

type Answer = Exclude<AgentAnswer, { kind: 'http_error' }>;

/** The one output item of an answer: an assistant message, or a function call. */
function outputItem(answer: Answer, id: string): Record<string, unknown> {
  if (answer.kind === 'text') {
    return {
      type: 'message',
      id: `msg_${id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    };
  }
  return {
    type: 'function_call',
    id: `fc_${id}`,
    call_id: `call_${id}`,
    name: answer.name,
    arguments: JSON.stringify(answer.arguments),
    status: 'completed',
  };
}

/** The `response` object (non-streaming answer, and the payload of `response.completed`). */
export function responsesObject(answer: Answer, id: string, model: string): Record<string, unknown> {
  return {
    id: `resp_${id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model,
    output: [outputItem(answer, id)],
    error: null,
    incomplete_details: null,
    usage: {
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 0,
    },
  };
}

/** The SSE events of one answer, in the order the API sends them, each with `type` and `sequence_number`. */
export function responsesEvents(answer: Answer, id: string, model: string): SseEvent[] {
  const done = responsesObject(answer, id, model);
  const item = outputItem(answer, id);
  const itemId = String(item['id']);
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: { ...done, status: 'in_progress', output: [] } },
    { type: 'response.in_progress', response: { ...done, status: 'in_progress', output: [] } },
  ];
  if (answer.kind === 'text') {
    const part = { type: 'output_text', text: '', annotations: [] };
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', item_id: itemId, output_index: 0, content_index: 0, part },
      ...chunkText(answer.text).map((delta) => ({
        type: 'response.output_text.delta',
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        delta,
      })),
      { type: 'response.output_text.done', item_id: itemId, output_index: 0, content_index: 0, text: answer.text },
      { type: 'response.content_part.done', item_id: itemId, output_index: 0, content_index: 0, part: { ...part, text: answer.text } },
    );
  } else {
    const args = String(item['arguments']);
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
      ...chunkText(args).map((delta) => ({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: 0, delta })),
      { type: 'response.function_call_arguments.done', item_id: itemId, output_index: 0, arguments: args },
    );
  }
  events.push({ type: 'response.output_item.done', output_index: 0, item }, { type: 'response.completed', response: done });
  return events.map((data, i) => ({ event: String(data['type']), data: { ...data, sequence_number: i } }));
}
