import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactedHeaderValue, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { CLIENT_TEST_PATH, clientUnderTest, expectedTurn, makeTurnWorld, runClient, turnResult } from './real-client-support';
import type { TurnWorld } from './real-client-support';

// The published Claude Code run headless (`claude -p`) against the mock's Messages API: one turn, receipt and outbox.
const under = clientUnderTest('claude');
const maybe = 'skip' in under ? it.skip : it;

/**
 * `~/.claude/settings.json` (docs/clients.md): the endpoint, the key through `apiKeyHelper` (a command
 * that prints the variable — the key is in no file and no argv), Bash allowed, updates and other traffic off.
 */
function seedSettings(world: TurnWorld, llm: MockLlm, extraEnv: Record<string, string> = {}): void {
  mkdirSync(join(world.home, '.claude'), { mode: 0o700 });
  const settings = {
    env: { ANTHROPIC_BASE_URL: llm.url, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...extraEnv },
    apiKeyHelper: 'printenv GENSWARMS_LLM_API_KEY',
    permissions: { allow: ['Bash'] },
  };
  writeFileSync(join(world.home, '.claude', 'settings.json'), JSON.stringify(settings), { mode: 0o600 });
}

function claudeEnv(world: TurnWorld): Record<string, string> {
  return { PATH: CLIENT_TEST_PATH, HOME: world.home, TMPDIR: world.tmp, GENSWARMS_LLM_API_KEY: world.key };
}

describe('Claude Code (published, headless) against the mock LLM', () => {
  let llm: MockLlm;
  let world: TurnWorld;
  beforeEach(async () => {
    llm = await startMockLlm();
    world = makeTurnWorld('gs-claude-');
  });
  afterEach(async () => {
    await llm.close();
    world.cleanup();
  });

  maybe('completes a turn: the mock calls Bash, the command writes reply.md, the outbox message and done.json', async () => {
    if ('skip' in under) return;
    seedSettings(world, llm);
    const run = await runClient(under.client.binary, ['-p', world.task], claudeEnv(world), world.workspace, world.key);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
    expect(turnResult(world)).toEqual(expectedTurn(world));
    expect(run.keyInArgv).toEqual([]);
    // CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC also drops its `HEAD /api/hello` reachability probe
    expect(llm.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/messages?beta=true', 'POST /v1/messages?beta=true']);
    const [first, second] = llm.requests;
    expect(first?.headers['x-api-key']).toBe(redactedHeaderValue(world.key));
    expect(first?.headers['authorization']).toBe(redactedHeaderValue(`Bearer ${world.key}`));
    expect((first?.body as { stream?: boolean; tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('Bash');
    expect((first?.body as { stream?: boolean }).stream).toBe(true);
    const messages = (second?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(JSON.stringify(messages[messages.length - 1])).toContain('"type":"tool_result"');
    expect(run.output).toContain(`mock: turn ${world.turnId} done`);
  });

  maybe('sends a Host header from ANTHROPIC_CUSTOM_HEADERS on its model requests', async () => {
    if ('skip' in under) return;
    seedSettings(world, llm, { ANTHROPIC_CUSTOM_HEADERS: 'Host: llm.upstream.test' });
    const run = await runClient(under.client.binary, ['-p', world.task], claudeEnv(world), world.workspace, world.key);
    expect(run.code).toBe(0);
    expect(llm.requests.map((r) => `${r.method} ${r.headers['host'] ?? ''}`)).toEqual(['POST llm.upstream.test', 'POST llm.upstream.test']);
  });
});
