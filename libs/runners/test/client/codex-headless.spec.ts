import { redactedHeaderValue, startMockLlm } from '@genswarms/tools';
import type { MockLlm } from '@genswarms/tools';
import { CLIENT_TEST_PATH, clientUnderTest, expectedTurn, makeTurnWorld, runClient, turnResult } from './real-client-support';
import type { TurnWorld } from './real-client-support';

// The published Codex run headless (`codex exec`) against the mock's Responses API: one turn, receipt and outbox.
const under = clientUnderTest('codex');
const maybe = 'skip' in under ? it.skip : it;

/**
 * `codex exec` argv (docs/clients.md): the provider as `-c` overrides naming the variable that holds the
 * key (never the key), the workspace writable by Codex's own sandbox, and its own network calls off.
 */
function codexArgv(llm: MockLlm, task: string, extraProvider = ''): string[] {
  return [
    'exec',
    '--skip-git-repo-check',
    '--sandbox',
    'workspace-write',
    '--disable',
    'plugins',
    '--disable',
    'remote_plugin',
    '--disable',
    'apps',
    '-c',
    `model_providers.mock={name="mock",base_url="${llm.url}/v1",env_key="GENSWARMS_LLM_API_KEY",wire_api="responses"${extraProvider}}`,
    '-c',
    'model_provider=mock',
    '-c',
    'model=mock-model',
    '-c',
    'analytics.enabled=false',
    '-c',
    'check_for_update_on_startup=false',
    task,
  ];
}

function codexEnv(world: TurnWorld): Record<string, string> {
  // TMPDIR outside HOME's tree: Codex refuses to create its helper binaries under the temporary directory.
  return { PATH: CLIENT_TEST_PATH, HOME: world.home, TMPDIR: world.tmp, GENSWARMS_LLM_API_KEY: world.key };
}

describe('Codex (published, headless) against the mock LLM', () => {
  let llm: MockLlm;
  let world: TurnWorld;
  beforeEach(async () => {
    llm = await startMockLlm();
    world = makeTurnWorld('gs-codex-');
  });
  afterEach(async () => {
    await llm.close();
    world.cleanup();
  });

  maybe('completes a turn: the mock calls exec_command, the command writes reply.md, the outbox message and done.json', async () => {
    if ('skip' in under) return;
    const run = await runClient(under.client.binary, codexArgv(llm, world.task), codexEnv(world), world.workspace, world.key);
    expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
    expect(turnResult(world)).toEqual(expectedTurn(world));
    expect(run.keyInArgv).toEqual([]);
    const model = llm.requests.filter((r) => r.path === '/v1/responses');
    expect(model).toHaveLength(2); // the task, then the exec_command output
    expect(model.map((r) => r.headers['authorization'])).toEqual([
      redactedHeaderValue(`Bearer ${world.key}`),
      redactedHeaderValue(`Bearer ${world.key}`),
    ]);
    const tools = (model[0]?.body as { tools: Array<{ name?: string }> }).tools.map((t) => t.name);
    expect(tools).toContain('exec_command');
    const input = (model[1]?.body as { input: Array<{ type?: string }> }).input;
    expect(input[input.length - 1]?.type).toBe('function_call_output');
    expect(run.output).toContain(`mock: turn ${world.turnId} done`);
  });

  maybe('sends a configured Host header (what a network-isolated agent behind the forwarder needs)', async () => {
    if ('skip' in under) return;
    const argv = codexArgv(llm, world.task, ',http_headers={Host="llm.upstream.test"}');
    const run = await runClient(under.client.binary, argv, codexEnv(world), world.workspace, world.key);
    expect(run.code).toBe(0);
    expect(new Set(llm.requests.map((r) => r.headers['host']))).toEqual(new Set(['llm.upstream.test']));
  });
});
