import { spawnSync } from 'node:child_process';
import { CLIENT_ADAPTERS } from './adapter-table';
import { anthropicBaseUrl, openAiBaseUrl } from './client-adapter';
import type { ClientAdapterInput } from './client-adapter';
import { codexConfigToml } from './codex-adapter';
import { claudeSettingsJson, claudeStateJson } from './claude-adapter';
import { opencodeConfigJson } from './opencode-adapter';

const KEY_ENV = 'GENSWARMS_LLM_API_KEY';

/** Reads TOML back with a real parser (Python's tomllib, the reference host has 3.11): what Codex will see. */
function parseToml(text: string): unknown {
  const py = 'import sys, json, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))';
  const run = spawnSync('python3', ['-c', py], { input: text, encoding: 'utf8', shell: false });
  if (run.status !== 0) throw new Error(`not valid TOML: ${run.stderr}`);
  return JSON.parse(run.stdout) as unknown;
}
const isolated: ClientAdapterInput = {
  endpoint: { url: 'http://127.0.0.1:17080/v1', hostHeader: 'llm.internal:8443', hasKey: true },
  model: 'gpt-test',
  workspace: '/workspace',
  home: '/root',
  unsafeBypass: false,
  sandboxed: true,
};
const onHost: ClientAdapterInput = {
  endpoint: { url: 'http://127.0.0.1:9000', hasKey: false },
  workspace: '/srv/ws',
  home: '/srv/home/state/s/a',
  unsafeBypass: false,
  sandboxed: false,
};

describe('endpoint base URLs', () => {
  test.each([
    ['http://127.0.0.1:17080', 'http://127.0.0.1:17080/v1'],
    ['http://127.0.0.1:17080/', 'http://127.0.0.1:17080/v1'],
    ['https://api.example/v1', 'https://api.example/v1'],
    ['https://api.example/v1/', 'https://api.example/v1'],
    ['https://api.example/v1/chat/completions', 'https://api.example/v1'],
    ['https://api.example/openai/v1/responses', 'https://api.example/openai/v1'],
    ['https://API.example:443/proxy', 'https://api.example/proxy'],
  ])('OpenAI style: %s → %s', (endpoint, base) => expect(openAiBaseUrl(endpoint)).toBe(base));

  test.each([
    ['http://127.0.0.1:17080', 'http://127.0.0.1:17080'],
    ['https://api.anthropic.com/v1', 'https://api.anthropic.com'],
    ['https://api.anthropic.com/v1/messages', 'https://api.anthropic.com'],
    ['https://gw.example/anthropic/v1/', 'https://gw.example/anthropic'],
    ['https://gw.example/anthropic', 'https://gw.example/anthropic'],
  ])('Anthropic: %s → %s', (endpoint, base) => expect(anthropicBaseUrl(endpoint)).toBe(base));
});

describe('the adapter table', () => {
  it('has one adapter per published client, each speaking one protocol', () => {
    expect(Object.entries(CLIENT_ADAPTERS).map(([name, a]) => [name, a.name, a.api, a.needsKey, a.needsModel])).toEqual([
      ['codex', 'codex', 'openai-responses', false, false],
      ['claude', 'claude', 'anthropic-messages', true, false],
      ['opencode', 'opencode', 'openai-chat', false, true],
    ]);
  });

  test.each(Object.values(CLIENT_ADAPTERS).map((a) => [a.name, a] as const))(
    '%s: names the key variable only, writes plain relative paths under HOME, each file in a directory it creates',
    (_n, a) => {
      for (const input of [isolated, onHost, { ...isolated, unsafeBypass: true }]) {
        const setup = a.setup(input);
        const text = [...setup.homeFiles.map((f) => f.content), ...setup.paneArgs, ...setup.headlessArgs, ...Object.values(setup.env)];
        // adapters never see a key (only whether one is set): where they mention it, it is by name
        for (const t of text) if (t.includes('API_KEY')) expect(t).toContain(KEY_ENV);
        for (const p of [...setup.homeFiles.map((f) => f.path), ...setup.homeDirs]) expect(p).toMatch(/^\.[a-z.]+(\/[a-z.]+)*$/);
        for (const f of setup.homeFiles) {
          const parent = f.path.split('/').slice(0, -1).join('/');
          if (parent !== '') expect(setup.homeDirs).toContain(parent);
        }
      }
    },
  );
});

describe('codex', () => {
  it('isolated, sandboxed: provider through the bridge with the Host header, key by variable name, full access inside ours', () => {
    const setup = CLIENT_ADAPTERS.codex.setup(isolated);
    expect(setup.headlessArgs).toEqual([
      'exec',
      '--skip-git-repo-check',
      '--color',
      'never',
      '--sandbox',
      'danger-full-access',
      '--model',
      'gpt-test',
    ]);
    expect(setup.paneArgs).toEqual(['--no-daemon', '--model', 'gpt-test']);
    expect(setup.env).toEqual({});
    expect(parseToml(codexConfigToml(isolated))).toEqual({
      check_for_update_on_startup: false,
      approval_policy: 'never',
      sandbox_mode: 'danger-full-access',
      model_provider: 'genswarms',
      analytics: { enabled: false },
      features: { plugins: false, remote_plugin: false, apps: false },
      model_providers: {
        genswarms: {
          name: 'genswarms',
          base_url: 'http://127.0.0.1:17080/v1',
          env_key: KEY_ENV,
          wire_api: 'responses',
          http_headers: { Host: 'llm.internal:8443' },
        },
      },
      projects: { '/workspace': { trust_level: 'trusted' } },
    });
  });

  it('on the host: its own workspace-write sandbox, a private TMPDIR, no env_key without a key', () => {
    const setup = CLIENT_ADAPTERS.codex.setup(onHost);
    expect(setup.headlessArgs).toContain('workspace-write');
    expect(setup.env).toEqual({ TMPDIR: '/srv/home/state/s/a/.tmp' });
    expect(setup.homeDirs).toEqual(['.codex', '.tmp']);
    const toml = parseToml(codexConfigToml(onHost)) as { model_providers: { genswarms: Record<string, unknown> } };
    expect(toml.model_providers.genswarms).toEqual({ name: 'genswarms', base_url: 'http://127.0.0.1:9000/v1', wire_api: 'responses' });
  });

  it('unsafe_bypass: the bypass flag instead of --sandbox', () => {
    const setup = CLIENT_ADAPTERS.codex.setup({ ...isolated, unsafeBypass: true });
    expect(setup.headlessArgs).toEqual([
      'exec',
      '--skip-git-repo-check',
      '--color',
      'never',
      '--model',
      'gpt-test',
      '--dangerously-bypass-approvals-and-sandbox',
    ]);
    expect(setup.paneArgs).toEqual(['--no-daemon', '--model', 'gpt-test', '--dangerously-bypass-approvals-and-sandbox']);
  });

  it('no endpoint: no provider, still trusted and quiet', () => {
    const toml = parseToml(codexConfigToml({ ...onHost, endpoint: undefined })) as Record<string, unknown>;
    expect(Object.keys(toml).sort()).toEqual([
      'analytics',
      'approval_policy',
      'check_for_update_on_startup',
      'features',
      'projects',
      'sandbox_mode',
    ]);
  });

  test.each([
    ['a quote and a table', 'x"]\n[evil]\nk = "v'],
    ['a backslash', 'C:\\ws\\"'],
    ['control characters', 'a\u0000b\u001fc\u007f'],
    ['a TOML comment', 'ws # not a comment'],
  ])('hostile workspace / model / Host (%s) stay one string value', (_name, hostile) => {
    const input: ClientAdapterInput = { ...isolated, workspace: hostile, endpoint: { ...isolated.endpoint!, hostHeader: hostile } };
    const toml = parseToml(codexConfigToml(input)) as {
      projects: Record<string, unknown>;
      model_providers: { genswarms: { http_headers: unknown } };
    };
    expect(Object.keys(toml.projects)).toEqual([hostile]);
    expect(toml.model_providers.genswarms.http_headers).toEqual({ Host: hostile });
    expect(Object.keys(toml).sort()).not.toContain('evil');
  });
});

describe('claude', () => {
  it('isolated: the base without /v1, Host through custom headers, the key through apiKeyHelper, tools allowed', () => {
    const setup = CLIENT_ADAPTERS.claude.setup(isolated);
    expect(setup.headlessArgs).toEqual(['-p', '--output-format', 'text', '--model', 'gpt-test']);
    expect(setup.homeFiles.map((f) => f.path)).toEqual(['.claude/settings.json', '.claude.json']);
    expect(JSON.parse(claudeSettingsJson(isolated))).toEqual({
      env: {
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:17080',
        ANTHROPIC_CUSTOM_HEADERS: 'Host: llm.internal:8443',
      },
      apiKeyHelper: `printf '%s' "$${KEY_ENV}"`,
      permissions: {
        defaultMode: 'default',
        disableAutoMode: 'disable',
        denyInsteadOfPrompting: true,
        allow: ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep'],
      },
    });
    expect(JSON.parse(claudeStateJson(isolated))).toEqual({
      hasCompletedOnboarding: true,
      projects: { '/workspace': { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    });
  });

  it('unsafe_bypass: --dangerously-skip-permissions and its warning accepted beforehand', () => {
    const input = { ...isolated, unsafeBypass: true };
    expect(CLIENT_ADAPTERS.claude.setup(input).paneArgs).toEqual(['--model', 'gpt-test', '--dangerously-skip-permissions']);
    expect(JSON.parse(claudeSettingsJson(input))).toMatchObject({ skipDangerousModePermissionPrompt: true });
    expect(JSON.parse(claudeStateJson(input))).toMatchObject({ bypassPermissionsModeAccepted: true });
  });

  test.each([['__proto__'], ['constructor'], ['/ws/"},"x":{"']])('a workspace spelled %j is one project key', (ws) => {
    const state = JSON.parse(claudeStateJson({ ...isolated, workspace: ws })) as { projects: object };
    expect(Object.keys(state.projects)).toEqual([ws]);
  });
});

describe('opencode', () => {
  it('isolated: an openai-compatible provider with the Host header, the key as {env:…}, model genswarms/<model>', () => {
    const setup = CLIENT_ADAPTERS.opencode.setup(isolated);
    expect(setup.headlessArgs).toEqual(['run']);
    expect(setup.paneArgs).toEqual([]);
    // its TUI unpacks a library into TMPDIR and loads it: a container's /tmp is noexec, HOME is not
    expect(setup.env).toEqual({ OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', TMPDIR: '/root/.tmp' });
    expect(setup.homeDirs).toEqual(['.config', '.config/opencode', '.tmp']);
    expect(JSON.parse(opencodeConfigJson(isolated))).toEqual({
      autoupdate: false,
      share: 'disabled',
      permission: { edit: 'allow', bash: 'allow' },
      provider: {
        genswarms: {
          npm: '@ai-sdk/openai-compatible',
          name: 'genswarms',
          options: { baseURL: 'http://127.0.0.1:17080/v1', apiKey: `{env:${KEY_ENV}}`, headers: { Host: 'llm.internal:8443' } },
          models: { 'gpt-test': {} },
        },
      },
      model: 'genswarms/gpt-test',
    });
  });

  it('no endpoint: --model on the argv as before, no provider', () => {
    const input = { ...onHost, endpoint: undefined, model: 'anthropic/claude-x' };
    expect(CLIENT_ADAPTERS.opencode.setup(input).paneArgs).toEqual(['--model', 'anthropic/claude-x']);
    expect(JSON.parse(opencodeConfigJson(input))).toEqual({
      autoupdate: false,
      share: 'disabled',
      permission: { edit: 'allow', bash: 'allow' },
    });
  });

  test.each([['{env:GENSWARMS_LLM_API_KEY}'], ['x{file:/etc/shadow}'], ['{ ENV : HOME}']])(
    'refuses the model name %j (OpenCode would substitute it)',
    (model) => {
      expect(CLIENT_ADAPTERS.opencode.refuse?.({ ...isolated, model })).toMatch(/must not contain/);
    },
  );

  it('accepts ordinary model names', () => {
    expect(CLIENT_ADAPTERS.opencode.refuse?.({ ...isolated, model: 'openai/gpt-4.1 {x}' })).toBeUndefined();
  });
});
