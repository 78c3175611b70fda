import { loadAgentConfig, parseTopology } from './agent-config';

const BASE = { GENSWARMS_AGENT: 'writer', GENSWARMS_WORKSPACE: '/workspace' };

describe('loadAgentConfig', () => {
  it('defaults the turns dir under the workspace and picks no LLM when nothing is set', () => {
    expect(loadAgentConfig(BASE)).toEqual({
      kind: 'ok',
      config: {
        swarm: '',
        agent: 'writer',
        workspace: '/workspace',
        turnsDir: '/workspace/.genswarms/turns',
        topology: [],
        llm: { kind: 'none' },
      },
    });
  });

  test.each([
    ['blank values are unset', { GENSWARMS_LLM_ENDPOINT: '  ', GENSWARMS_MOCK_SCRIPT: '' }, 'none'],
    ['an endpoint', { GENSWARMS_LLM_ENDPOINT: 'https://llm.example/v1' }, 'endpoint'],
    ['a mock script wins over an endpoint', { GENSWARMS_LLM_ENDPOINT: 'https://llm.example/v1', GENSWARMS_MOCK_SCRIPT: '[]' }, 'mock'],
  ])('%s', (_name, extra, kind) => {
    const loaded = loadAgentConfig({ ...BASE, ...extra });
    expect(loaded.kind === 'ok' && loaded.config.llm.kind).toBe(kind);
  });

  it('keeps key, upstream host and model for the endpoint', () => {
    const loaded = loadAgentConfig({
      ...BASE,
      GENSWARMS_LLM_ENDPOINT: 'http://127.0.0.1:17080/v1',
      GENSWARMS_LLM_API_KEY: 'k',
      GENSWARMS_LLM_UPSTREAM_HOST: '[::1]:8443',
      GENSWARMS_MODEL: 'm',
    });
    expect(loaded.kind === 'ok' && loaded.config.llm).toEqual({
      kind: 'endpoint',
      endpoint: 'http://127.0.0.1:17080/v1',
      apiKey: 'k',
      upstreamHost: '[::1]:8443',
      model: 'm',
    });
  });
});

describe('GENSWARMS_TURN_TIMEOUT_MS', () => {
  it('is kept as turnTimeoutMs (it bounds LLM retries)', () => {
    const loaded = loadAgentConfig({ ...BASE, GENSWARMS_TURN_TIMEOUT_MS: '90000' });
    expect(loaded.kind === 'ok' && loaded.config.turnTimeoutMs).toBe(90000);
  });

  test.each([['0'], ['-1'], ['1.5'], ['1e3'], ['86400001'], ['99999999999'], ['10 '], ['0x10']])('refuses %j', (value) => {
    expect(loadAgentConfig({ ...BASE, GENSWARMS_TURN_TIMEOUT_MS: value })).toEqual({
      kind: 'invalid',
      variable: 'GENSWARMS_TURN_TIMEOUT_MS',
      reason: 'must be an integer 1..86400000',
    });
  });
});

describe('parseTopology', () => {
  test.each([
    [undefined, []],
    ['', []],
    ['critic', ['critic']],
    [' critic , web-bot ,critic', ['critic', 'web-bot']],
    ['ok,../x,__proto__,$(id),,1bad', ['ok']],
  ])('%j → %j', (raw, expected) => {
    expect(parseTopology(raw)).toEqual(expected);
  });
});
