import { isSecretKey, redactSecrets, redactUrl, REDACTED } from './redact';

describe('isSecretKey', () => {
  test.each([
    ['api_key', true],
    ['API_KEY', true],
    ['apikey', true],
    ['ApiKey', true],
    ['token', true],
    ['max_tokens', true],
    ['github_token', true],
    ['client_secret', true],
    ['password', true],
    ['db_passwd', true],
    ['credentials', true],
    ['api-key', false],
    ['name', false],
    ['model', false],
    ['key', false],
  ])('%s → %s', (key, want) => {
    expect(isSecretKey(key)).toBe(want);
  });
});
describe('isSecretKey remembers answers without changing them', () => {
  const long = `${'x'.repeat(200)}Token`;
  test.each([
    ['token', true],
    ['Token', true],
    ['tokens_used', true],
    ['name', false],
    ['__proto__', false],
    ['constructor', false],
    [long, true],
    [`${'y'.repeat(5000)}`, false],
  ])('%s → %s, every time', (key, want) => {
    for (let i = 0; i < 3; i++) expect(isSecretKey(key)).toBe(want);
  });

  it('answers past the memo size as before (hostile key names cannot grow it or change an answer)', () => {
    for (let i = 0; i < 6000; i++) expect(isSecretKey(`k${i}`)).toBe(false);
    for (let i = 0; i < 6000; i++) expect(isSecretKey(`k${i}_secret`)).toBe(true);
    expect(isSecretKey('password')).toBe(true);
  });
});

describe('redactSecrets', () => {
  it('redacts secret keys at any depth and every value under config.env, returning a copy', () => {
    const input = {
      name: 's',
      agents: [
        { name: 'a', api_key: 'sk-1', config: { env: { FOO: 'bar', N: 1 }, model: 'm', nested: { password: 'p' } } },
        { name: 'b', config: { env: 'weird' } },
      ],
      objects: [{ name: 'o', config: { apiKey: 'k', rate: 3 } }],
    };
    const out = redactSecrets(input);
    expect(out).toEqual({
      name: 's',
      agents: [
        { name: 'a', api_key: REDACTED, config: { env: { FOO: REDACTED, N: REDACTED }, model: 'm', nested: { password: REDACTED } } },
        { name: 'b', config: { env: REDACTED } },
      ],
      objects: [{ name: 'o', config: { apiKey: REDACTED, rate: 3 } }],
    });
    expect(input.agents[0]?.api_key).toBe('sk-1');
    expect(JSON.stringify(out)).not.toMatch(/sk-1|bar|"p"|"k"/);
  });

  it('keeps a JSON "__proto__" key as plain data without touching the prototype', () => {
    const parsed = JSON.parse('{"__proto__":{"token":"t","x":1}}') as Record<string, unknown>;
    const out = redactSecrets(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"token":"[REDACTED]","x":1}}');
  });

  it('keeps keys Object.prototype names ("constructor", "toString", "hasOwnProperty") as plain data', () => {
    const parsed = JSON.parse('{"constructor":{"password":"p"},"toString":1,"hasOwnProperty":"x"}') as Record<string, unknown>;
    const out = redactSecrets(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"constructor":{"password":"[REDACTED]"},"toString":1,"hasOwnProperty":"x"}');
  });

  it('answers the same for a key after thousands of other names went through (the memo of answers is bounded)', () => {
    for (let i = 0; i < 10_000; i++) redactSecrets({ [`k${i}`]: 1, [`my_token_${i}`]: 'v' });
    expect(redactSecrets({ password: 'p', name: 'n' })).toEqual({ password: REDACTED, name: 'n' });
    expect(isSecretKey('GITHUB_TOKEN')).toBe(true);
    expect(isSecretKey('model')).toBe(false);
  });

  test.each<[string, unknown, unknown]>([
    ['a prompt token count', { prompt_tokens: 12 }, { prompt_tokens: 12 }],
    ['a zero count', { total_tokens: 0 }, { total_tokens: 0 }],
    ['max_tokens in a config', { config: { max_tokens: 4096 } }, { config: { max_tokens: 4096 } }],
    ['a string under a *_tokens key', { prompt_tokens: 'sk-abc' }, { prompt_tokens: REDACTED }],
    ['a negative number', { prompt_tokens: -1 }, { prompt_tokens: REDACTED }],
    ['a fraction', { prompt_tokens: 1.5 }, { prompt_tokens: REDACTED }],
    ['a list', { access_tokens: ['t1'] }, { access_tokens: REDACTED }],
    ['an object', { refresh_tokens: { a: 'b' } }, { refresh_tokens: REDACTED }],
    ['a number under token itself', { token: 1234 }, { token: REDACTED }],
    ['a number under a *_token key', { github_token: 1234 }, { github_token: REDACTED }],
  ])('%s: a *_tokens count is shown, anything else there is redacted', (_name, input, want) => {
    expect(redactSecrets(input)).toEqual(want);
  });

  it('passes primitives through and survives cycles', () => {
    expect(redactSecrets(5)).toBe(5);
    expect(redactSecrets(null)).toBeNull();
    const cyc: Record<string, unknown> = { a: 1 };
    cyc['self'] = cyc;
    expect(redactSecrets(cyc)).toEqual({ a: 1, self: REDACTED });
  });
});

describe('redactUrl', () => {
  test.each([
    ['/socket.io/?EIO=4&transport=websocket&token=abc', '/socket.io/?EIO=4&transport=websocket&token=[REDACTED]'],
    ['/x?token=abc&token=def', '/x?token=[REDACTED]&token=[REDACTED]'],
    ['/x?TOKEN=abc', '/x?TOKEN=[REDACTED]'],
    ['/x?access_token=abc#frag', '/x?access_token=[REDACTED]#frag'],
    ['/x?to%6Ben=abc', '/x?to%6Ben=[REDACTED]'],
    ['/x?a=1', '/x?a=1'],
    ['/x', '/x'],
    ['http://h:1/p?api_key=s&b=2', 'http://h:1/p?api_key=[REDACTED]&b=2'],
  ])('%s → %s', (url, want) => {
    expect(redactUrl(url)).toBe(want);
  });
});
