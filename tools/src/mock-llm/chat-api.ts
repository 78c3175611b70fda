import type { AgentAnswer, Conversation } from './agent-turn';
import type { SseEvent } from './sse';
import { chunkText } from './sse';
import { isRecord, partsText } from './wire';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`: genswarms-agent, OpenCode through
 * `@ai-sdk/openai-compatible`): a Conversation from `messages`/`tools`, the answer as a `chat.completion`
 * or, with `stream: true`, as `chat.completion.chunk` events ending in `[DONE]`.
 */

/** `messages[]` (`role: "tool"` carries tool results) and `tools[].function.name`. */
export function readChatRequest(body: unknown): Conversation {
  const messages = isRecord(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const userTexts = messages.flatMap((m: unknown) => (isRecord(m) && m['role'] === 'user' ? [partsText(m['content'])] : []));
  const last = messages[messages.length - 1];
  const tools = isRecord(body) && Array.isArray(body['tools']) ? body['tools'] : [];
  return {
    userTexts,
    endsWithToolResult: isRecord(last) && last['role'] === 'tool',
    toolNames: tools.flatMap((t: unknown) => {
      const fn = isRecord(t) ? t['function'] : undefined;
      return isRecord(fn) && typeof fn['name'] === 'string' ? [fn['name']] : [];
    }),
  };
}

type Answer = Exclude<AgentAnswer, { kind: 'http_error' }>;

const USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

function toolCall(answer: Extract<Answer, { kind: 'tool_call' }>, id: string): Record<string, unknown> {
  return { id: `call_${id}`, type: 'function', function: { name: answer.name, arguments: JSON.stringify(answer.arguments) } };
}

/** The `chat.completion` object (the non-streaming answer). */
export function chatObject(answer: Answer, id: string, model: string): Record<string, unknown> {
  const message =
    answer.kind === 'text'
      ? { role: 'assistant', content: answer.text }
      : { role: 'assistant', content: null, tool_calls: [toolCall(answer, id)] };
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: answer.kind === 'text' ? 'stop' : 'tool_calls' }],
    usage: USAGE,
  };
}

/** The chunks of one answer: role, deltas (text, or one tool call's name then its arguments in pieces), finish, usage, `[DONE]`. */
export function chatEvents(answer: Answer, id: string, model: string): SseEvent[] {
  const base = { id: `chatcmpl-${id}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
    data: { ...base, choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  if (answer.kind === 'text') {
    events.push(...chunkText(answer.text).map((content) => chunk({ content })));
  } else {
    const call = toolCall(answer, id);
    const args = JSON.stringify(answer.arguments);
    events.push(chunk({ tool_calls: [{ index: 0, id: call['id'], type: 'function', function: { name: answer.name, arguments: '' } }] }));
    events.push(...chunkText(args).map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })));
  }
  events.push(chunk({}, answer.kind === 'text' ? 'stop' : 'tool_calls'));
  events.push({ data: { ...base, choices: [], usage: USAGE } }, { data: '[DONE]' });
  return events;
}
