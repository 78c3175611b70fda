import { ENDPOINT_API_NAMES } from '@genswarms/ir-gate';
import { DEFAULT_ENDPOINT_APIS, ENDPOINT_APIS, inferEndpointApis, parseEndpointApiList } from './endpoint-api';

describe('GENSWARMS_LLM_ENDPOINT_API / endpoint_api', () => {
  test.each([
    ['openai-chat', ['openai-chat']],
    [' anthropic-messages , openai-chat ', ['anthropic-messages', 'openai-chat']],
    ['openai-responses,openai-responses', ['openai-responses']],
    ['openai-responses,,openai-chat', undefined],
    ['', undefined],
    [' , ', undefined],
    ['OPENAI-CHAT', undefined],
    ['openai', undefined],
    ['__proto__', undefined],
    ['openai-chat\0', undefined],
    ['x'.repeat(10_000), undefined],
  ])('%j → %j', (raw, apis) => {
    const parsed = parseEndpointApiList(raw);
    if (apis === undefined) {
      expect(parsed.kind).toBe('invalid');
      if (parsed.kind === 'invalid') expect(parsed.reason.length).toBeLessThan(200);
    } else expect(parsed).toEqual({ kind: 'ok', apis });
  });

  test.each([
    ['https://api.openai.com/v1', ['openai-responses', 'openai-chat']],
    ['https://API.Anthropic.com', ['anthropic-messages']],
    ['https://api.anthropic.com.evil.example/v1', DEFAULT_ENDPOINT_APIS],
    ['http://127.0.0.1:8080/v1', DEFAULT_ENDPOINT_APIS],
    ['not a url', DEFAULT_ENDPOINT_APIS],
  ])('an undeclared %s speaks %j', (endpoint, apis) => expect(inferEndpointApis(endpoint)).toEqual(apis));
});

describe('the config gate and the runners agree on the names', () => {
  it('ENDPOINT_APIS equals @genswarms/ir-gate ENDPOINT_API_NAMES', () => {
    expect([...ENDPOINT_APIS]).toEqual([...ENDPOINT_API_NAMES]);
  });
});
