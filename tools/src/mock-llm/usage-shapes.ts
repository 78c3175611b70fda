/**
 * The usage shapes of the three wire protocols an LLM answers in, JSON and streamed (SSE): OpenAI chat
 * completions (the final usage chunk of `stream_options.include_usage`), OpenAI responses
 * (`response.completed`), Anthropic messages (`message_start` + cumulative `message_delta`). Pure builders
 * used by the usage mock (usage-llm-server.ts) to test the metering egress.
 */

/** Token counts a mock answer reports. */
export interface MockUsage {
  readonly prompt: number;
  readonly completion: number;
}

/** Which wire protocol a route speaks. */
export type UsageProtocol = 'chat' | 'responses' | 'messages';

const sse = (events: ReadonlyArray<readonly [string | null, unknown]>): string =>
  events
    .map(([name, data]) => `${name === null ? '' : `event: ${name}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
    .join('');

/** One JSON answer with `text` and `usage` in the protocol's shape. */
export function usageJson(protocol: UsageProtocol, text: string, u: MockUsage): unknown {
  switch (protocol) {
    case 'chat':
      return {
        id: 'chatcmpl-usage',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion },
      };
    case 'responses':
      return {
        id: 'resp-usage',
        object: 'response',
        status: 'completed',
        output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }],
        usage: { input_tokens: u.prompt, output_tokens: u.completion, total_tokens: u.prompt + u.completion },
      };
    case 'messages':
      return {
        id: 'msg-usage',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        usage: { input_tokens: u.prompt, output_tokens: u.completion },
      };
  }
}

/** The same answer streamed, `text` split into word deltas, usage where each protocol puts it. */
export function usageSse(protocol: UsageProtocol, text: string, u: MockUsage): string {
  const words = text.split(/(?<= )/);
  switch (protocol) {
    case 'chat':
      return sse([
        ...words.map(
          (w) => [null, { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: w } }], usage: null }] as const,
        ),
        [
          null,
          {
            object: 'chat.completion.chunk',
            choices: [],
            usage: { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion },
          },
        ],
        [null, '[DONE]'],
      ]);
    case 'responses':
      return sse([
        ['response.created', { type: 'response.created', response: { id: 'resp-usage', status: 'in_progress', usage: null } }],
        ...words.map((w) => ['response.output_text.delta', { type: 'response.output_text.delta', delta: w }] as const),
        [
          'response.completed',
          {
            type: 'response.completed',
            response: {
              id: 'resp-usage',
              status: 'completed',
              usage: { input_tokens: u.prompt, output_tokens: u.completion, total_tokens: u.prompt + u.completion },
            },
          },
        ],
      ]);
    case 'messages':
      return sse([
        [
          'message_start',
          { type: 'message_start', message: { id: 'msg-usage', type: 'message', usage: { input_tokens: u.prompt, output_tokens: 1 } } },
        ],
        ...words.map(
          (w) => ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: w } }] as const,
        ),
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: u.completion } }],
        ['message_stop', { type: 'message_stop' }],
      ]);
  }
}
