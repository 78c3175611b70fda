import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentEnv, startAgent } from './support/harness';

describe('genswarms-agent refuses an invalid environment', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-env-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test.each([
    ['GENSWARMS_AGENT', { GENSWARMS_AGENT: '' }],
    ['GENSWARMS_AGENT', { GENSWARMS_AGENT: '../x' }],
    ['GENSWARMS_WORKSPACE', { GENSWARMS_WORKSPACE: 'relative/ws' }],
    ['GENSWARMS_TURNS_DIR', { GENSWARMS_TURNS_DIR: 'turns' }],
    ['GENSWARMS_LLM_ENDPOINT', { GENSWARMS_LLM_ENDPOINT: 'ftp://llm.example/v1' }],
    ['GENSWARMS_LLM_ENDPOINT', { GENSWARMS_LLM_ENDPOINT: 'http://user:sk-in-url@llm.example/v1' }],
    [
      'GENSWARMS_LLM_UPSTREAM_HOST',
      { GENSWARMS_LLM_ENDPOINT: 'http://127.0.0.1:1/v1', GENSWARMS_LLM_UPSTREAM_HOST: 'evil.example\r\nX-Injected: 1' },
    ],
    ['GENSWARMS_LLM_API_KEY', { GENSWARMS_LLM_ENDPOINT: 'http://127.0.0.1:1/v1', GENSWARMS_LLM_API_KEY: 'sk-abc\nX-Injected: 1' }],
    ['GENSWARMS_MOCK_SCRIPT', { GENSWARMS_MOCK_SCRIPT: '[{"match":"/(/","response":"x"}]' }],
    ['GENSWARMS_MOCK_SCRIPT', { GENSWARMS_MOCK_SCRIPT: '/nonexistent/script.json' }],
  ])('exits 2 naming %s, without echoing values', async (variable, overrides) => {
    const agent = startAgent(agentEnv(join(dir, 'ws'), overrides));
    expect(await agent.exited).toBe(2);
    expect(agent.output()).toMatch(new RegExp(`^genswarms-agent: invalid ${variable}: [^\\n]+\\n$`));
    expect(agent.output()).not.toMatch(/sk-|X-Injected/);
  });
});
