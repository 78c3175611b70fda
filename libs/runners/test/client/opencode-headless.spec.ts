import { redactedHeaderValue, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { CLIENT_TEST_PATH, clientUnderTest, expectedTurn, makeTurnWorld, runClient, turnResult } from './real-client-support';
import type { TurnWorld } from './real-client-support';

// The published OpenCode run headless (`opencode run`) against the mock's streamed Chat Completions: one turn.
const under = clientUnderTest('opencode');
const maybe = 'skip' in under ? it.skip : it;

/** OPENCODE_CONFIG_CONTENT (docs/clients.md): the provider, the key as `{env:…}` (resolved by OpenCode, in no file or argv). */
function opencodeEnv(world: TurnWorld, llm: MockLlm, headers?: Record<string, string>): Record<string, string> {
  const options = { baseURL: `${llm.url}/v1`, apiKey: '{env:GENSWARMS_LLM_API_KEY}', ...(headers === undefined ? {} : { headers }) };
  const config = {
    provider: { mock: { npm: '@ai-sdk/openai-compatible', options, models: { 'mock-model': {} } } },
    model: 'mock/mock-model',
  };
  return {
    PATH: CLIENT_TEST_PATH,
    HOME: world.home,
    TMPDIR: world.tmp,
    GENSWARMS_LLM_API_KEY: world.key,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
  };
}

describe('OpenCode (published, headless) against the mock LLM', () => {
  let llm: MockLlm;
  let world: TurnWorld;
  beforeEach(async () => {
    llm = await startMockLlm();
    world = makeTurnWorld('gs-opencode-');
  });
  afterEach(async () => {
    await llm.close();
    world.cleanup();
  });

  maybe('completes a turn: the mock calls bash, the command writes reply.md, the outbox message and done.json', async () => {
    if ('skip' in under) return;
    const run = await runClient(under.client.binary, ['run', world.task], opencodeEnv(world, llm), world.workspace, world.key);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
    expect(turnResult(world)).toEqual(expectedTurn(world));
    expect(run.keyInArgv).toEqual([]);
    expect(new Set(llm.requests.map((r) => `${r.method} ${r.path}`))).toEqual(new Set(['POST /v1/chat/completions']));
    expect(new Set(llm.requests.map((r) => r.headers['authorization']))).toEqual(new Set([redactedHeaderValue(`Bearer ${world.key}`)]));
    const bodies = llm.requests.map(
      (r) => r.body as { stream?: boolean; tools?: Array<{ function: { name: string } }>; messages: Array<{ role: string }> },
    );
    expect(bodies.every((b) => b.stream === true)).toBe(true);
    const turn = bodies.filter((b) => (b.tools ?? []).some((t) => t.function.name === 'bash'));
    expect(turn).toHaveLength(2); // the task, then the bash result (a separate tool-less request names the session)
    expect(turn[1]?.messages[turn[1].messages.length - 1]?.role).toBe('tool');
    expect(run.output).toContain(`mock: turn ${world.turnId} done`);
  });

  maybe('sends a Host header from the provider options', async () => {
    if ('skip' in under) return;
    const env = opencodeEnv(world, llm, { Host: 'llm.upstream.test' });
    const run = await runClient(under.client.binary, ['run', world.task], env, world.workspace, world.key);
    expect(run.code).toBe(0);
    expect(new Set(llm.requests.map((r) => r.headers['host']))).toEqual(new Set(['llm.upstream.test']));
  });
});
