import { startMockLlm } from './mock-llm-server';
import type { MockLlm } from './mock-llm-server';
import { redactedHeaderValue } from './recorded-request';

const TURN_DIR = '/ws/.genswarms/turns/t1';
const TASK = [
  '[genswarms] turn t1 — message 1 from _operator:',
  'write the plan',
  `When finished, write your reply to ${TURN_DIR}/reply.md, then write {"v":1,"turn":"t1","status":"ok"} to ${TURN_DIR}/done.json.`,
].join('\n');

interface Sse {
  readonly event?: string;
  readonly data: string;
}

/** Parses a text/event-stream body into its events (blank-line separated; `event:` and `data:` lines). */
function parseSse(text: string): Sse[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
      return event === undefined ? { data } : { event, data };
    });
}

async function post(llm: MockLlm, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${llm.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function events(res: Response): Promise<Array<Record<string, unknown>>> {
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  return parseSse(await res.text()).map((e) => (e.data === '[DONE]' ? { done: true } : (JSON.parse(e.data) as Record<string, unknown>)));
}

describe('mock LLM wire protocols', () => {
  let llm: MockLlm;
  beforeEach(async () => {
    llm = await startMockLlm({ script: [{ match: 'fail', response: 'overloaded', status: 529 }] });
  });
  afterEach(async () => llm.close());

  it('Responses API: streams a function_call to exec_command, then the final text after its output', async () => {
    const tools = [
      { type: 'function', name: 'write_stdin' },
      { type: 'function', name: 'exec_command' },
    ];
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: TASK }] }];
    const first = await events(await post(llm, '/v1/responses', { model: 'm', stream: true, input, tools }));
    expect(first.map((e) => e['type'])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(first.map((e) => e['sequence_number'])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const item = first[7]?.['item'] as { type: string; name: string; arguments: string; call_id: string };
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(item.arguments)).toEqual({ cmd: expect.stringContaining(`d='${TURN_DIR}'`) });
    const deltas = first
      .filter((e) => e['type'] === 'response.function_call_arguments.delta')
      .map((e) => e['delta'])
      .join('');
    expect(deltas).toBe(item.arguments);
    const output = { type: 'function_call_output', call_id: item.call_id, output: 'exit 0' };
    const second = await events(await post(llm, '/v1/responses', { stream: true, input: [...input, item, output], tools }));
    const done = second.find((e) => e['type'] === 'response.completed')?.['response'] as { output: unknown[] };
    expect(done.output).toEqual([
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'mock: turn t1 done' })] }),
    ]);
  });

  it('Responses API: answers a response object without stream, from the script', async () => {
    const res = await post(llm, '/v1/responses', { model: 'gpt-x', input: 'hello' });
    expect(await res.json()).toMatchObject({ object: 'response', model: 'gpt-x', status: 'completed', output: [{ type: 'message' }] });
  });

  it('Messages API: streams a tool_use for Bash with input_json_delta, then end_turn after the tool_result', async () => {
    const tools = [{ name: 'Agent' }, { name: 'Bash' }];
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>r</system-reminder>' },
          { type: 'text', text: TASK },
        ],
      },
    ];
    const first = await events(await post(llm, '/v1/messages?beta=true', { model: 'claude-x', stream: true, messages, tools }));
    expect(first.map((e) => e['type'])).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const block = first[1]?.['content_block'] as { type: string; id: string; name: string };
    expect(block).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const json = first.map((e) => (e['delta'] as { partial_json?: string } | undefined)?.partial_json ?? '').join('');
    expect(JSON.parse(json)).toEqual({ command: expect.stringContaining('base64 -d'), description: expect.any(String) });
    expect(first[7]).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: '(no output)' }] };
    const assistant = { role: 'assistant', content: [{ ...block, input: JSON.parse(json) as unknown }] };
    const res = await post(llm, '/v1/messages', { messages: [...messages, assistant, result, { role: 'system', content: 'x' }], tools });
    expect(await res.json()).toMatchObject({
      type: 'message',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'mock: turn t1 done' }],
    });
  });

  it('Messages API: a scripted error has the Anthropic error shape', async () => {
    const res = await post(llm, '/v1/messages', { messages: [{ role: 'user', content: 'please fail' }] });
    expect(res.status).toBe(529);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'api_error', message: 'overloaded' } });
  });

  it('Chat Completions: streams delta.tool_calls for bash, finish_reason tool_calls, then [DONE]', async () => {
    const tools = [
      { type: 'function', function: { name: 'read' } },
      { type: 'function', function: { name: 'bash' } },
    ];
    const chunks = await events(
      await post(llm, '/v1/chat/completions', { stream: true, messages: [{ role: 'user', content: TASK }], tools }),
    );
    expect(chunks[chunks.length - 1]).toEqual({ done: true });
    const deltas = chunks.flatMap((c) =>
      ((c['choices'] as Array<{ delta: { tool_calls?: unknown[] } }> | undefined) ?? []).map((ch) => ch.delta),
    );
    const calls = deltas.flatMap((d) => (d.tool_calls ?? []) as Array<{ id?: string; function: { name?: string; arguments: string } }>);
    expect(calls[0]).toMatchObject({ id: expect.any(String), function: { name: 'bash', arguments: '' } });
    expect(JSON.parse(calls.map((c) => c.function.arguments).join(''))).toMatchObject({ command: expect.stringContaining(TURN_DIR) });
    const finish = chunks.flatMap((c) =>
      ((c['choices'] as Array<{ finish_reason: string | null }> | undefined) ?? []).map((ch) => ch.finish_reason),
    );
    expect(finish.filter((f) => f !== null)).toEqual(['tool_calls']);
  });

  it('Chat Completions: answers the final text after a role: tool message, and streams text deltas', async () => {
    const messages = [
      { role: 'user', content: TASK },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '' },
    ];
    const chunks = await events(
      await post(llm, '/v1/chat/completions', { stream: true, messages, tools: [{ type: 'function', function: { name: 'bash' } }] }),
    );
    const text = chunks.map((c) => (c['choices'] as Array<{ delta: { content?: string } }> | undefined)?.[0]?.delta.content ?? '').join('');
    expect(text).toBe('mock: turn t1 done');
  });

  it("answers Claude Code's probe, token count and model list, and counts what it recorded", async () => {
    expect((await fetch(`${llm.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    expect(await (await post(llm, '/v1/messages/count_tokens', { messages: [] })).json()).toEqual({ input_tokens: 1 });
    const models = (await (await fetch(`${llm.url}/v1/models`)).json()) as { data: Array<{ id: string; type: string }> };
    expect(models.data).toEqual([expect.objectContaining({ id: 'mock-model', type: 'model', object: 'model' })]);
    expect(await (await fetch(`${llm.url}/__mock/count`)).json()).toEqual({ count: 3 });
  });

  it('records credential headers as a fingerprint, never verbatim', async () => {
    const key = 'sk-ant-secret-0123456789';
    await post(llm, '/v1/messages', { messages: [] }, { 'x-api-key': key, authorization: `Bearer ${key}`, cookie: `s=${key}` });
    const [seen] = llm.requests;
    expect(seen?.headers['x-api-key']).toBe(redactedHeaderValue(key));
    expect(seen?.headers['authorization']).toBe(redactedHeaderValue(`Bearer ${key}`));
    expect(seen?.headers['cookie']).toMatch(/^\[redacted sha256:[0-9a-f]{16}\]$/);
    expect(JSON.stringify(await (await fetch(`${llm.url}/__mock/requests`)).json())).not.toContain(key);
  });
});
