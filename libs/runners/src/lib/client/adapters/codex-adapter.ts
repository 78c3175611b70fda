import type { ClientAdapter, ClientAdapterInput, ClientSetup } from './client-adapter';
import { CLIENT_KEY_ENV, hostTmpEnv, openAiBaseUrl } from './client-adapter';
import { tomlInlineTable, tomlPairs, tomlString } from './toml';

/** The provider id genswarms adds to Codex's `model_providers`. */
export const CODEX_PROVIDER_ID = 'genswarms';
/** Codex features that reach the vendor's hosts on their own (plugin sync, connectors): off. */
const CODEX_FEATURES_OFF: readonly string[] = ['plugins', 'remote_plugin', 'apps'];

/**
 * Codex 0.169 (docs/clients.md "Codex"): everything in `HOME/.codex/config.toml` — the provider (OpenAI
 * Responses, `env_key` names the variable, so the key is in no file), the workspace trusted, updates,
 * analytics and plugin sync off, approvals `never` (a command Codex's sandbox refuses fails instead of
 * asking a person). Its own sandbox: `workspace-write` on the host; inside a genswarms sandbox
 * `danger-full-access` (a nested bwrap needs user namespaces and netlink that docker, `config.seccomp`
 * and the network filter deny; the outer sandbox is the boundary). With `unsafe_bypass` the bypass flag.
 */
export const CODEX_ADAPTER: ClientAdapter = {
  name: 'codex',
  api: 'openai-responses',
  needsKey: false,
  needsModel: false,
  setup: codexSetup,
};

function codexSetup(input: ClientAdapterInput): ClientSetup {
  const tmp = hostTmpEnv(input);
  const model = input.model === undefined ? [] : ['--model', input.model];
  const bypass = input.unsafeBypass ? ['--dangerously-bypass-approvals-and-sandbox'] : [];
  const sandbox = input.unsafeBypass ? [] : ['--sandbox', codexSandboxMode(input)];
  return {
    homeFiles: [{ path: '.codex/config.toml', content: codexConfigToml(input) }],
    homeDirs: ['.codex', ...tmp.dirs],
    env: tmp.env,
    // the TUI's shared background server records its pid's start time, which fails in a container; one per agent anyway
    paneArgs: ['--no-daemon', ...model, ...bypass],
    headlessArgs: ['exec', '--skip-git-repo-check', '--color', 'never', ...sandbox, ...model, ...bypass],
  };
}

/** `workspace-write` on the host; `danger-full-access` inside a genswarms sandbox (not one of the bypass flags). */
export function codexSandboxMode(input: Pick<ClientAdapterInput, 'sandboxed'>): 'workspace-write' | 'danger-full-access' {
  return input.sandboxed ? 'danger-full-access' : 'workspace-write';
}

/** The whole config.toml; pure. Top-level keys first, then tables. */
export function codexConfigToml(input: ClientAdapterInput): string {
  const endpoint = input.endpoint;
  const top = tomlPairs([
    ['check_for_update_on_startup', false],
    ['approval_policy', 'never'],
    ['sandbox_mode', codexSandboxMode(input)],
    ...(endpoint === undefined ? [] : [['model_provider', CODEX_PROVIDER_ID] as const]),
  ]);
  const lines = ['# Written by genswarms at every start of this agent (docs/clients.md); edits are overwritten.', ...top, ''];
  lines.push('[analytics]', ...tomlPairs([['enabled', false]]), '');
  lines.push('[features]', ...tomlPairs(CODEX_FEATURES_OFF.map((f) => [f, false] as const)), '');
  if (endpoint !== undefined) {
    lines.push(`[model_providers.${CODEX_PROVIDER_ID}]`);
    lines.push(
      ...tomlPairs([
        ['name', CODEX_PROVIDER_ID],
        ['base_url', openAiBaseUrl(endpoint.url)],
        ...(endpoint.hasKey ? [['env_key', CLIENT_KEY_ENV] as const] : []),
        ['wire_api', 'responses'],
      ]),
    );
    if (endpoint.hostHeader !== undefined) lines.push(`http_headers = ${tomlInlineTable([['Host', endpoint.hostHeader]])}`);
    lines.push('');
  }
  lines.push(`[projects.${tomlString(input.workspace)}]`, ...tomlPairs([['trust_level', 'trusted']]));
  return `${lines.join('\n')}\n`;
}
