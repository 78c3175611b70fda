import { createBwrapRunner, createLocalRunner, createTmuxRunner } from '../../src/index';
import type { AgentLaunchSpec, EndpointApi, Runner, RunnerContext } from '../../src/index';
import { ECHO_ARGV, makeContext, makeSandboxDirs, makeSpec } from '../support';

// Plan refuses a coding client the endpoint it is given cannot serve (docs/clients.md "Endpoint compatibility").
let dirs: ReturnType<typeof makeSandboxDirs>;
beforeEach(() => {
  dirs = makeSandboxDirs();
});
afterEach(() => dirs.cleanup());

interface Case {
  readonly client: 'codex' | 'claude' | 'opencode';
  readonly server?: { endpoint: string; apis?: EndpointApi[]; key?: string };
  readonly agent?: Partial<AgentLaunchSpec>;
}

function ctxOf(c: Case): RunnerContext {
  const s = c.server;
  return makeContext(dirs.home, {
    llm: {
      allowedHosts: s === undefined ? [] : [new URL(s.endpoint).hostname],
      ...(s === undefined ? {} : { defaultEndpoint: s.endpoint }),
      ...(s?.key === undefined ? {} : { serverApiKey: s.key }),
      ...(s?.apis === undefined ? {} : { endpointApis: s.apis }),
    },
  });
}

/** The plan's outcome: `ok`, or the refusal's code and `details.reason`. */
function outcome(runner: Runner, c: Case, extra: Partial<AgentLaunchSpec> = {}): string {
  // agent_binary_path stands in for the client's executable: what is checked here is the endpoint, not the install
  const spec = makeSpec({ workspace: dirs.workspace, client: c.client, config: { agent_binary_path: ECHO_ARGV }, ...c.agent, ...extra });
  try {
    runner.plan(spec, ctxOf(c));
    return 'ok';
  } catch (err) {
    const e = err as { code?: string; details?: { reason?: string } };
    return [e.code, e.details?.reason].filter((x) => x !== undefined).join(':');
  }
}

const LOCAL = 'http://127.0.0.1:9/v1';
const CASES: ReadonlyArray<readonly [string, Case, string]> = [
  ['no endpoint at all: vendor defaults, nothing to check', { client: 'claude' }, 'ok'],
  [
    'codex on an undeclared endpoint (taken as openai-chat)',
    { client: 'codex', server: { endpoint: LOCAL } },
    'client_endpoint_incompatible:wire_api',
  ],
  ['codex on a declared openai-responses endpoint', { client: 'codex', server: { endpoint: LOCAL, apis: ['openai-responses'] } }, 'ok'],
  ['codex on api.openai.com (known host)', { client: 'codex', server: { endpoint: 'https://api.openai.com/v1' } }, 'ok'],
  [
    'claude on an openai endpoint',
    { client: 'claude', server: { endpoint: LOCAL, apis: ['openai-chat', 'openai-responses'], key: 'k' } },
    'client_endpoint_incompatible:wire_api',
  ],
  [
    'claude with a key on anthropic-messages',
    { client: 'claude', server: { endpoint: LOCAL, apis: ['anthropic-messages'], key: 'k' } },
    'ok',
  ],
  [
    'claude without any key',
    { client: 'claude', server: { endpoint: LOCAL, apis: ['anthropic-messages'] } },
    'client_endpoint_incompatible:no_api_key',
  ],
  [
    'claude on its own untrusted endpoint: the server key is withheld, so it has none',
    {
      client: 'claude',
      server: { endpoint: LOCAL, key: 'k' },
      agent: { endpoint: 'http://other.example/', endpointApis: ['anthropic-messages'] },
    },
    'client_endpoint_incompatible:no_api_key',
  ],
  [
    'claude on its own endpoint with its own key and endpoint_api',
    { client: 'claude', agent: { endpoint: 'http://other.example/', endpointApis: ['anthropic-messages'], apiKey: 'own' } },
    'ok',
  ],
  [
    "the agent's endpoint_api describes its own endpoint, never the server's",
    {
      client: 'claude',
      server: { endpoint: LOCAL, apis: ['anthropic-messages'], key: 'k' },
      agent: { endpoint: 'http://other.example/v1' },
    },
    'client_endpoint_incompatible:wire_api',
  ],
  ['opencode on the default openai-chat', { client: 'opencode', server: { endpoint: LOCAL }, agent: { model: 'm' } }, 'ok'],
  ['opencode without a model', { client: 'opencode', server: { endpoint: LOCAL } }, 'validation_failed'],
  [
    'opencode with a substituting model name',
    { client: 'opencode', server: { endpoint: LOCAL }, agent: { model: '{file:/etc/shadow}' } },
    'validation_failed',
  ],
  [
    'an endpoint with a query string',
    { client: 'opencode', server: { endpoint: `${LOCAL}?api-version=1` }, agent: { model: 'm' } },
    'client_endpoint_incompatible:endpoint_query',
  ],
  ['network none: no endpoint reaches the client', { client: 'codex', server: { endpoint: LOCAL }, agent: { network: 'none' } }, 'ok'],
];

describe('coding client × endpoint at plan', () => {
  test.each(CASES)('local: %s → %s', (_name, c, expected) => {
    const agent = c.agent?.network === 'none' ? { backend: 'bwrap' as const } : {};
    const runner = agent.backend === 'bwrap' ? createBwrapRunner() : createLocalRunner();
    expect(outcome(runner, c, agent)).toBe(expected);
  });

  it('the same refusal on tmux and bwrap (headless)', () => {
    const c: Case = { client: 'codex', server: { endpoint: LOCAL } };
    expect(outcome(createTmuxRunner(), c, { backend: 'tmux' })).toBe('client_endpoint_incompatible:wire_api');
    expect(outcome(createBwrapRunner(), c, { backend: 'bwrap' })).toBe('client_endpoint_incompatible:wire_api');
  });

  it('names the client, both protocols and who declared them; never the key', () => {
    const spec = makeSpec({ workspace: dirs.workspace, client: 'claude', config: { agent_binary_path: ECHO_ARGV } });
    const ctx = ctxOf({ client: 'claude', server: { endpoint: LOCAL, apis: ['openai-chat'], key: 'sk-never-shown' } });
    let caught: unknown;
    try {
      createLocalRunner().plan(spec, ctx);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({
      code: 'client_endpoint_incompatible',
      message: 'claude speaks anthropic-messages; the endpoint speaks openai-chat (declared by GENSWARMS_LLM_ENDPOINT_API)',
      details: {
        client: 'claude',
        reason: 'wire_api',
        client_api: 'anthropic-messages',
        endpoint_apis: ['openai-chat'],
        declared_by: 'GENSWARMS_LLM_ENDPOINT_API',
      },
    });
    expect(JSON.stringify(caught)).not.toContain('sk-never-shown');
  });
});
