import { USAGE_TOKENS_MAX } from './relay-limits';
import type { UsageFormat } from './response-head';
import { createUsageReader } from './usage-reader';
import type { LlmUsage } from './usage-tally';

/** Reads `body` in one piece, then split at every byte boundary, then byte by byte: the answer must not change. */
function readAllWays(format: UsageFormat, body: string): LlmUsage | null {
  const bytes = Buffer.from(body, 'utf8');
  const whole = createUsageReader(format);
  whole.push(bytes, 0, bytes.length);
  const expected = whole.finish();
  for (let cut = 1; cut < bytes.length; cut++) {
    const r = createUsageReader(format);
    r.push(bytes.subarray(0, cut), 0, cut);
    const rest = Buffer.concat([Buffer.from('padding'), bytes.subarray(cut)]); // offsets other than 0 too
    r.push(rest, 7, rest.length);
    expect(r.finish()).toEqual(expected);
  }
  const single = createUsageReader(format);
  for (let i = 0; i < bytes.length; i++) single.push(bytes, i, i + 1);
  expect(single.finish()).toEqual(expected);
  return expected;
}

const u = (promptTokens: number, completionTokens: number, totalTokens: number, trusted = true): LlmUsage => ({
  promptTokens,
  completionTokens,
  totalTokens,
  trusted,
});

const sse = (...events: unknown[]): string => events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');

describe('usage from the wire shapes', () => {
  test.each<[string, UsageFormat, string, LlmUsage | null]>([
    [
      'OpenAI chat JSON',
      'json',
      JSON.stringify({
        id: 'x',
        choices: [{ message: { content: 'hi' } }],
        usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
      }),
      u(12, 5, 17),
    ],
    [
      'OpenAI chat SSE with the final usage chunk',
      'sse',
      sse(
        { choices: [{ delta: { content: 'a' } }], usage: null },
        { choices: [], usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 } },
        '[DONE]',
      ),
      u(9, 3, 12),
    ],
    [
      'OpenAI responses JSON',
      'json',
      JSON.stringify({
        object: 'response',
        output: [{ content: [{ text: 'x' }] }],
        usage: { input_tokens: 20, output_tokens: 7, total_tokens: 27 },
      }),
      u(20, 7, 27),
    ],
    [
      'OpenAI responses SSE (response.completed)',
      'sse',
      'event: response.created\ndata: {"type":"response.created","response":{"usage":null}}\n\n' +
        'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"hi"}\n\n' +
        'event: response.completed\ndata: {"type":"response.completed","response":{"output":[],"usage":{"input_tokens":30,"output_tokens":4,"total_tokens":34}}}\n\n',
      u(30, 4, 34),
    ],
    [
      'Anthropic messages JSON (cache tokens are prompt tokens)',
      'json',
      JSON.stringify({
        type: 'message',
        content: [{ type: 'text', text: 'x' }],
        usage: { input_tokens: 10, cache_creation_input_tokens: 2, cache_read_input_tokens: 3, output_tokens: 6 },
      }),
      u(15, 6, 21),
    ],
    [
      'Anthropic SSE (message_start, cumulative message_delta)',
      'sse',
      'event: message_start\r\ndata: {"type":"message_start","message":{"usage":{"input_tokens":25,"output_tokens":1}}}\r\n\r\n' +
        'event: content_block_delta\r\ndata: {"type":"content_block_delta","delta":{"text":"x"}}\r\n\r\n' +
        'event: message_delta\r\ndata: {"type":"message_delta","usage":{"output_tokens":15,"input_tokens":null}}\r\n\r\n' +
        'event: message_stop\r\ndata: {"type":"message_stop"}\r\n\r\n',
      u(25, 15, 40),
    ],
    [
      'a long OpenAI stream (usage: null in every chunk) with its usage at the end',
      'sse',
      sse(...Array.from({ length: 40 }, () => ({ choices: [{ delta: { content: 'tok' } }], usage: null })), {
        choices: [],
        usage: { prompt_tokens: 2, completion_tokens: 40 },
      }),
      u(2, 40, 42),
    ],
    [
      'an event whose text ends in _tokens is scanned and holds no count',
      'sse',
      sse({ choices: [{ delta: { content: 'max_tokens' } }] }, { usage: { output_tokens: 3 } }),
      u(0, 3, 3),
    ],
    [
      'SSE with CR line ends and a multi-line data event',
      'sse',
      'data: {"usage":\rdata: {"prompt_tokens":1,"completion_tokens":2}}\r\r',
      u(1, 2, 3),
    ],
    ['no usage at all', 'json', JSON.stringify({ choices: [{ message: { content: 'hi' } }] }), null],
    ['a body that is not read', 'none', JSON.stringify({ usage: { prompt_tokens: 5 } }), null],
  ])('%s', (_name, format, body, expected) => {
    expect(readAllWays(format, body)).toEqual(expected);
  });
});

describe('usage that lies or hides', () => {
  const chat = (usage: string): string => `{"choices":[],"usage":${usage}}`;
  test.each<[string, UsageFormat, string, LlmUsage | null]>([
    [
      'a usage object inside the completion text is a string, never read',
      'json',
      JSON.stringify({
        choices: [{ message: { content: '{"usage":{"prompt_tokens":0,"total_tokens":0}} \\" "usage" ' } }],
        usage: { prompt_tokens: 50, completion_tokens: 50 },
      }),
      u(50, 50, 100),
    ],
    [
      'a usage object deeper than the known paths is not read',
      'json',
      JSON.stringify({ content: [{ type: 'tool_use', input: { usage: { input_tokens: 1 } } }], choices: { usage: { prompt_tokens: 1 } } }),
      null,
    ],
    ['escaped quotes and backslashes before the real usage', 'json', '{"a":"\\\\\\"usage\\\\","usage":{"prompt_tokens":4}}', u(4, 0, 4)],
    [
      'a negative count is charged at the cap',
      'json',
      chat('{"prompt_tokens":-100,"completion_tokens":1}'),
      u(USAGE_TOKENS_MAX, 1, USAGE_TOKENS_MAX + 1, false),
    ],
    ['a fraction is charged at the cap', 'json', chat('{"prompt_tokens":1.5}'), u(USAGE_TOKENS_MAX, 0, USAGE_TOKENS_MAX, false)],
    ['an exponent is charged at the cap', 'json', chat('{"completion_tokens":1e400}'), u(0, USAGE_TOKENS_MAX, USAGE_TOKENS_MAX, false)],
    ['a huge count is charged at the cap', 'json', chat('{"total_tokens":99999999999999999999999999}'), u(0, 0, USAGE_TOKENS_MAX, false)],
    [
      'a count written as a string is charged at the cap',
      'json',
      chat('{"prompt_tokens":"7"}'),
      u(USAGE_TOKENS_MAX, 0, USAGE_TOKENS_MAX, false),
    ],
    [
      'a count written as an object is charged at the cap',
      'json',
      chat('{"prompt_tokens":{"n":7}}'),
      u(USAGE_TOKENS_MAX, 0, USAGE_TOKENS_MAX, false),
    ],
    [
      'a total lower than its parts is raised to their sum',
      'json',
      chat('{"prompt_tokens":10,"completion_tokens":10,"total_tokens":1}'),
      u(10, 10, 20),
    ],
    ['a repeated usage key keeps the larger count', 'json', '{"usage":{"prompt_tokens":100},"usage":{"prompt_tokens":1}}', u(100, 0, 100)],
    [
      'a later smaller SSE report never lowers the charge',
      'sse',
      sse({ usage: { output_tokens: 9 } }, { usage: { output_tokens: 2 } }),
      u(0, 9, 9),
    ],
    ['an array root carries no usage', 'json', '[{"usage":{"prompt_tokens":3}}]', null],
    ['garbage carries no usage', 'json', '@@@ {"usage":{"prompt_tokens":3}}', null],
    ['a document deeper than the scanner follows stops being read', 'json', `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`, null],
  ])('%s', (_name, format, body, expected) => {
    expect(readAllWays(format, body)).toEqual(expected);
  });
});
