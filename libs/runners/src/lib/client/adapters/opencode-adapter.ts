import type { ClientAdapter, ClientAdapterInput, ClientSetup } from './client-adapter';
import { CLIENT_KEY_ENV, hostTmpEnv, openAiBaseUrl } from './client-adapter';

/** The provider id genswarms adds to OpenCode's `provider` map (its model is `genswarms/<model>`). */
export const OPENCODE_PROVIDER_ID = 'genswarms';

/** OpenCode's own network calls off: its updater and the model list (models.opencode.ai). */
const OPENCODE_QUIET_ENV: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
};

/**
 * OpenCode 1.18 (docs/clients.md "OpenCode"): `HOME/.config/opencode/opencode.json` holds a provider of the
 * built-in `@ai-sdk/openai-compatible` package (Chat Completions) with `apiKey: "{env:…}"` (resolved by
 * OpenCode: the key is in no file), the Host override as a provider header, the model, `autoupdate` and
 * sharing off, edits and shell commands allowed (an `ask` would wait for a person). It has no bypass flag.
 */
export const OPENCODE_ADAPTER: ClientAdapter = {
  name: 'opencode',
  api: 'openai-chat',
  needsKey: false,
  needsModel: true,
  refuse: (input) =>
    input.model !== undefined && OPENCODE_SUBSTITUTION_RE.test(input.model)
      ? 'an OpenCode model name must not contain `{env:` or `{file:` (OpenCode substitutes them in its config)'
      : undefined,
  setup: opencodeSetup,
};

/** OpenCode replaces `{env:NAME}` and `{file:path}` anywhere in its config: a model name must carry neither. */
const OPENCODE_SUBSTITUTION_RE = /\{\s*(env|file)\s*:/i;

function opencodeSetup(input: ClientAdapterInput): ClientSetup {
  const tmp = hostTmpEnv(input, true);
  // with an endpoint the model is the provider's (`genswarms/<model>` in the file); `--model` would name a provider
  const model = input.model === undefined || input.endpoint !== undefined ? [] : ['--model', input.model];
  return {
    homeFiles: [{ path: '.config/opencode/opencode.json', content: opencodeConfigJson(input) }],
    homeDirs: ['.config', '.config/opencode', ...tmp.dirs],
    env: { ...OPENCODE_QUIET_ENV, ...tmp.env },
    paneArgs: model,
    headlessArgs: ['run', ...model],
  };
}

/** `.config/opencode/opencode.json`; pure. */
export function opencodeConfigJson(input: ClientAdapterInput): string {
  const endpoint = input.endpoint;
  const config: Record<string, unknown> = {
    autoupdate: false,
    share: 'disabled',
    permission: { edit: 'allow', bash: 'allow' },
  };
  if (endpoint !== undefined) {
    const model = input.model ?? 'default';
    const options = {
      baseURL: openAiBaseUrl(endpoint.url),
      ...(endpoint.hasKey ? { apiKey: `{env:${CLIENT_KEY_ENV}}` } : {}),
      ...(endpoint.hostHeader === undefined ? {} : { headers: { Host: endpoint.hostHeader } }),
    };
    const provider = { npm: '@ai-sdk/openai-compatible', name: OPENCODE_PROVIDER_ID, options, models: Object.fromEntries([[model, {}]]) };
    config['provider'] = { [OPENCODE_PROVIDER_ID]: provider };
    config['model'] = `${OPENCODE_PROVIDER_ID}/${model}`;
  }
  return `${JSON.stringify(config, null, 2)}\n`;
}
