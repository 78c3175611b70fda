import { request } from 'node:http';
import { MOCK_LLM_BODY_MAX_BYTES, startMockLlm } from './mock-llm-server';
import type { MockLlm } from './mock-llm-server';
import { redactedHeaderValue } from './recorded-request';

function chat(url: string, content: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      model: 'm1',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content },
      ],
    }),
  });
}

async function answerOf(res: Response): Promise<string> {
  const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
  return body.choices[0]?.message.content ?? '';
}

describe('startMockLlm', () => {
  let llm: MockLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });

  it('listens on a free port on 127.0.0.1 and echoes the last user message by default', async () => {
    llm = await startMockLlm({ port: 0 });
    expect(llm.url).toBe(`http://127.0.0.1:${llm.port}`);
    const res = await chat(llm.url, 'hello');
    expect(res.status).toBe(200);
    const body = (await res.clone().json()) as { model: string; object: string };
    expect(body).toMatchObject({ model: 'm1', object: 'chat.completion' });
    expect(await answerOf(res)).toBe('mock: hello');
  });

  it('answers from the script by substring and by regex', async () => {
    llm = await startMockLlm({
      script: [
        { match: '/^sum (\\d+)$/', response: 'regex {{content}}' },
        { match: 'plan', response: 'the plan' },
      ],
    });
    expect(await answerOf(await chat(llm.url, 'sum 12'))).toBe('regex sum 12');
    expect(await answerOf(await chat(llm.url, 'make a plan'))).toBe('the plan');
  });

  it('reads text parts when the content is an array', async () => {
    llm = await startMockLlm();
    expect(await answerOf(await chat(llm.url, [{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }]))).toBe(
      'mock: ab',
    );
  });

  it('answers a scripted HTTP error status', async () => {
    llm = await startMockLlm({ script: [{ match: 'fail', response: 'upstream down', status: 502 }] });
    const res = await chat(llm.url, 'please fail');
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { message: 'upstream down', type: 'mock_error' } });
  });

  it('records method, path, headers (Authorization as a fingerprint) and body', async () => {
    llm = await startMockLlm();
    await chat(llm.url, 'one', { authorization: 'Bearer sk-test 123' });
    await chat(llm.url, 'two');
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm1' } });
    expect(llm.requests[0]?.headers['authorization']).toBe(redactedHeaderValue('Bearer sk-test 123'));
    expect(llm.requests[1]?.headers['authorization']).toBeUndefined();
  });

  it('serves /v1/models and the recorded requests on the control route, which is not recorded', async () => {
    llm = await startMockLlm();
    const models = (await (await fetch(`${llm.url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['mock-model']);
    const recorded = (await (await fetch(`${llm.url}/__mock/requests`)).json()) as Array<{ path: string }>;
    expect(recorded.map((r) => r.path)).toEqual(['/v1/models']);
  });

  it('answers 404 on unknown routes and 413 on a body over the bound', async () => {
    llm = await startMockLlm();
    expect((await fetch(`${llm.url}/v1/completions`, { method: 'POST', body: '{}' })).status).toBe(404);
    const status = await postRaw(llm.port, Buffer.alloc(MOCK_LLM_BODY_MAX_BYTES + 1, 0x61));
    expect(status).toBe(413);
  });

  it('records a Host header as sent', async () => {
    llm = await startMockLlm();
    await postRaw(llm.port, Buffer.from('{}'), { host: 'llm.example.com:8443' });
    expect(llm.requests[0]?.headers['host']).toBe('llm.example.com:8443');
  });
});

function postRaw(port: number, body: Buffer, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}
