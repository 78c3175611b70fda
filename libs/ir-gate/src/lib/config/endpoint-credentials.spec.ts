import { validateConfig } from './validate-config';

// Found by the secrets scan's probe (docs/reliability.md "Secrets scan"): an `endpoint` is not a secret position,
// so a credential inside it was stored in genswarms.db and shown verbatim by POST …/snapshot. It is refused.
const withEndpoint = (endpoint: string): unknown => ({ name: 's', agents: [{ name: 'a', endpoint }] });
const SECRET = 'gscanary-endpoint-0123456789abcdef';

describe('an agent endpoint carries no credential (use api_key)', () => {
  test.each([
    ['user and password', `http://user:${SECRET}@llm.example/v1`],
    ['user only', `https://${SECRET}@llm.example/v1`],
    ['a key query parameter', `https://llm.example/v1?key=${SECRET}`],
    ['an api-key query parameter', `https://llm.example/v1?api-version=1&api-key=${SECRET}`],
    ['a token query parameter (any case)', `https://llm.example/v1?Access_Token=${SECRET}`],
    ['a signature query parameter', `https://llm.example/v1?sig=${SECRET}`],
  ])('%s: validation_failed naming the field, never the value', (_label, endpoint) => {
    const r = validateConfig(withEndpoint(endpoint));
    expect(r.kind).toBe('invalid');
    expect(JSON.stringify(r)).toContain('agents.0.endpoint');
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  test.each([
    ['a plain endpoint', 'https://llm.example/v1'],
    ['a port and a path', 'http://127.0.0.1:8080/openai/v1'],
    ['a harmless query parameter', 'https://llm.example/v1?api-version=2024-06-01'],
  ])('%s is still accepted', (_label, endpoint) => {
    expect(validateConfig(withEndpoint(endpoint)).kind).toBe('ok');
  });
});
