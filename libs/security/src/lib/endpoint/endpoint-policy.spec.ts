import { SecurityError } from '../errors/security-error';
import { buildEndpointPolicy, decideApiKey, effectiveEndpoint, hostOf, isEndpointTrusted } from './endpoint-policy';

describe('hostOf', () => {
  test.each([
    ['https://API.Example.com:8443/v1?x=1', 'api.example.com'],
    ['http://localhost:11434', 'localhost'],
    ['http://[FD00::1]:8080/v1', '[fd00::1]'],
    ['https://10.0.0.5', '10.0.0.5'],
  ])('%s → %s', (url, host) => {
    expect(hostOf(url)).toBe(host);
  });

  test.each(['ftp://x.com', 'file:///etc/passwd', 'not a url', '', 'x.com', 'javascript:alert(1)'])(
    'refuses %j with invalid_endpoint',
    (url) => {
      expect(() => hostOf(url)).toThrow(SecurityError);
      try {
        hostOf(url);
      } catch (err) {
        expect((err as SecurityError).code).toBe('invalid_endpoint');
      }
    },
  );
});

describe('buildEndpointPolicy', () => {
  it('unions the operator endpoint host with the allowlist, trimmed and lower-cased', () => {
    const p = buildEndpointPolicy({ llmEndpoint: 'https://LLM.corp.example/v1', allowedEndpoints: ' API.x.com, ,foo.test ', apiKey: 'k' });
    expect(p).toEqual({
      defaultEndpoint: 'https://LLM.corp.example/v1',
      serverApiKey: 'k',
      allowedHosts: ['llm.corp.example', 'api.x.com', 'foo.test'],
    });
  });

  it('treats unset values as absent', () => {
    expect(buildEndpointPolicy({ llmEndpoint: '  ', allowedEndpoints: '', apiKey: ' ' })).toEqual({ allowedHosts: [] });
  });

  test.each(['ftp://x', 'not-a-url', 'localhost:8080'])('refuses operator endpoint %j with invalid_llm_endpoint', (llmEndpoint) => {
    expect(() => buildEndpointPolicy({ llmEndpoint })).toThrow(expect.objectContaining({ code: 'invalid_llm_endpoint' }));
  });
});

describe('isEndpointTrusted', () => {
  const policy = buildEndpointPolicy({
    llmEndpoint: 'https://llm.corp.example/v1',
    allowedEndpoints: 'example.com,https://api.x.com,api.y.com:443,[fd00::1],api.z.com/v1',
  });
  test.each<[string | undefined, boolean]>([
    [undefined, true],
    ['', true],
    ['https://llm.corp.example/other', true],
    ['http://LLM.CORP.EXAMPLE:9999', true],
    ['https://example.com/v1', true],
    ['https://api.example.com/v1', false],
    ['https://example.com.evil.net', false],
    ['https://api.x.com', false],
    ['https://api.y.com', false],
    ['https://api.z.com', false],
    ['http://[fd00::1]:8080', true],
    ['http://[fd00::2]', false],
    ['ftp://example.com', false],
    ['garbage', false],
    ['https://user:pw@evil.com/@example.com', false],
  ])('%j → %s', (endpoint, want) => {
    expect(isEndpointTrusted(policy, endpoint)).toBe(want);
  });
});

describe('effectiveEndpoint', () => {
  it('prefers the agent endpoint, then the operator default, then none', () => {
    const p = buildEndpointPolicy({ llmEndpoint: 'https://llm/v1' });
    expect(effectiveEndpoint(p, 'https://agent/v1')).toBe('https://agent/v1');
    expect(effectiveEndpoint(p, undefined)).toBe('https://llm/v1');
    expect(effectiveEndpoint(buildEndpointPolicy({}), undefined)).toBeUndefined();
  });
});

describe('decideApiKey', () => {
  const withKey = buildEndpointPolicy({ llmEndpoint: 'https://llm.example/v1', apiKey: 'server-key' });
  const noKey = buildEndpointPolicy({ llmEndpoint: 'https://llm.example/v1' });
  test.each<[string, typeof withKey, { endpoint?: string; apiKey?: string; network: string }, unknown]>([
    ['own key wins', withKey, { apiKey: 'own', endpoint: 'https://evil.example', network: 'open' }, { kind: 'agent_key', key: 'own' }],
    [
      'trusted endpoint gets the server key',
      withKey,
      { endpoint: 'https://llm.example/x', network: 'open' },
      { kind: 'server_key', key: 'server-key' },
    ],
    ['no endpoint gets the server key', withKey, { network: 'isolated' }, { kind: 'server_key', key: 'server-key' }],
    ['untrusted endpoint: key withheld', withKey, { endpoint: 'https://evil.example', network: 'open' }, { kind: 'withheld' }],
    ['no server key: none', noKey, { endpoint: 'https://evil.example', network: 'open' }, { kind: 'none' }],
    ['network none: never a key', withKey, { apiKey: 'own', network: 'none' }, { kind: 'none' }],
    ['network NONE: never a key', withKey, { network: 'NONE' }, { kind: 'none' }],
  ])('%s', (_label, policy, agent, want) => {
    expect(decideApiKey(policy, agent)).toEqual(want);
  });
});
