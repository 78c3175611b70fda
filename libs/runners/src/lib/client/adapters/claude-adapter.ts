import type { ClientAdapter, ClientAdapterInput, ClientSetup } from './client-adapter';
import { anthropicBaseUrl, CLIENT_KEY_ENV, hostTmpEnv } from './client-adapter';

/**
 * The tools a turn may use without asking (`permissions.allow`): the workspace's file and shell tools. A
 * prompt for any of them would wait for a person (`-p` refuses the call instead); the runner's boundary is
 * the agent's boundary (docs/clients.md "Claude Code"). Web tools stay behind their prompt.
 */
export const CLAUDE_ALLOWED_TOOLS: readonly string[] = ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep'];

/**
 * The `apiKeyHelper` command (Claude Code runs it with /bin/sh): prints the key from the environment. `printf`
 * is a builtin of dash, bash and busybox ash, so no process is exec'd with the key as an argv word (`printenv`,
 * which takes only the name, is missing from the busybox agent image).
 */
export const CLAUDE_API_KEY_HELPER = `printf '%s' "$${CLIENT_KEY_ENV}"`;

/** Claude Code's own traffic switches: updater, telemetry, error reports, the other non-essential calls. */
const CLAUDE_QUIET_ENV: Readonly<Record<string, string>> = {
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

/**
 * Claude Code 2.1 (docs/clients.md "Claude Code"): `HOME/.claude/settings.json` holds the endpoint
 * (`ANTHROPIC_BASE_URL`, the base without `/v1`), the Host override (`ANTHROPIC_CUSTOM_HEADERS`), the key
 * through `apiKeyHelper` (a command printing the variable: no "use this API key?" question, the key in no
 * file), the allowed tools and the traffic switches; `HOME/.claude.json` has onboarding done and the
 * workspace trusted. With `unsafe_bypass`: `--dangerously-skip-permissions` and its warning pre-accepted.
 */
export const CLAUDE_ADAPTER: ClientAdapter = {
  name: 'claude',
  api: 'anthropic-messages',
  needsKey: true,
  needsModel: false,
  setup: claudeSetup,
};

function claudeSetup(input: ClientAdapterInput): ClientSetup {
  const tmp = hostTmpEnv(input);
  const model = input.model === undefined ? [] : ['--model', input.model];
  const bypass = input.unsafeBypass ? ['--dangerously-skip-permissions'] : [];
  return {
    homeFiles: [
      { path: '.claude/settings.json', content: claudeSettingsJson(input) },
      { path: '.claude.json', content: claudeStateJson(input) },
    ],
    homeDirs: ['.claude', ...tmp.dirs],
    env: tmp.env,
    paneArgs: [...model, ...bypass],
    headlessArgs: ['-p', '--output-format', 'text', ...model, ...bypass],
  };
}

/** `.claude/settings.json`; pure. */
export function claudeSettingsJson(input: ClientAdapterInput): string {
  const endpoint = input.endpoint;
  const env: Record<string, string> = { ...CLAUDE_QUIET_ENV };
  if (endpoint !== undefined) env['ANTHROPIC_BASE_URL'] = anthropicBaseUrl(endpoint.url);
  if (endpoint?.hostHeader !== undefined) env['ANTHROPIC_CUSTOM_HEADERS'] = `Host: ${endpoint.hostHeader}`;
  const settings = {
    env,
    ...(endpoint?.hasKey === true ? { apiKeyHelper: CLAUDE_API_KEY_HELPER } : {}),
    // The allow list decides (`default` mode, auto mode off: Claude Code 2.1's own default asks a classifier on the
    // vendor's side through the endpoint, and offers itself in a dialog); whatever would still prompt is denied.
    permissions: { defaultMode: 'default', disableAutoMode: 'disable', denyInsteadOfPrompting: true, allow: [...CLAUDE_ALLOWED_TOOLS] },
    ...(input.unsafeBypass ? { skipDangerousModePermissionPrompt: true } : {}),
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/** `.claude.json` (Claude Code adds its own fields to it as it runs); pure. */
export function claudeStateJson(input: ClientAdapterInput): string {
  const project = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true };
  const state = {
    hasCompletedOnboarding: true,
    // a workspace path is a key here: fromEntries makes it an own property whatever it spells
    projects: Object.fromEntries([[input.workspace, project]]),
    ...(input.unsafeBypass ? { bypassPermissionsModeAccepted: true } : {}),
  };
  return `${JSON.stringify(state, null, 2)}\n`;
}
