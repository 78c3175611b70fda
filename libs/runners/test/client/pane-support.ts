/**
 * The published clients as pane (tmux) and pty (local) agents against the mock LLM. Their first-run files are
 * written here into the agent's HOME (its state_dir) before the start, as docs/clients.md "Pane mode" lists them;
 * the client adapters write the same files.
 */
import { chownSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startMockLlm, type MockLlm } from '@genswarms/tools';
import type { AgentLaunchSpec, InnerRunner, RunnerContext, TurnDelivery } from '../../src/lib/port';
import type { CodingClientName } from '../../src/lib/client/coding-clients';
import { buildRunnerContext } from '../../src/lib/context/runner-context';
import { agentIdentityOf } from '../../src/lib/identity/agent-identity';
import { ensurePrivateDir, stateDirFor } from '../../src/lib/state/state-dir';

export const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface PaneWorld {
  readonly llm: MockLlm;
  readonly ctx: RunnerContext;
  /** A fresh fake key: it must reach the mock, never a screen. */
  readonly key: string;
  /** Host path of the agent's workspace (created 0711, owned by the agent). */
  workspace(agent: string): string;
  cleanup(): Promise<void>;
}

/** A private GENSWARMS_HOME, the mock LLM on 127.0.0.1:0, and a runner context that trusts it. */
export async function makePaneWorld(prefix: string): Promise<PaneWorld> {
  const base = await fsp.mkdtemp(path.join(tmpdir(), `gs-${prefix}-`));
  const home = path.join(base, 'home');
  await fsp.mkdir(home, { mode: 0o700 });
  await fsp.chmod(base, 0o711); // a root test process runs agents as the agent uid: they must reach their workspaces below
  const llm = await startMockLlm();
  const ctx = buildRunnerContext({
    path: SYSTEM_PATH,
    home,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    agentEntry: '/nonexistent/genswarms-agent/main.js',
    // the mock speaks all three wire protocols (declared, so the adapters' endpoint check passes)
    llm: { defaultEndpoint: llm.url, allowedHosts: ['127.0.0.1'], endpointApis: ['openai-responses', 'openai-chat', 'anthropic-messages'] },
    userHome: '/root',
    workspaceRoots: [realpathSync(base)], // the specs' workspaces are `<base>/ws-<agent>`
  });
  const agentIds = agentIdentityOf(ctx);
  return {
    llm,
    ctx,
    key: `sk-genswarms-test-${randomBytes(12).toString('hex')}`,
    workspace: (agent) => {
      const dir = path.join(base, `ws-${agent}`);
      mkdirSync(dir, { recursive: true, mode: 0o711 });
      chownSync(dir, agentIds.uid, agentIds.gid);
      return dir;
    },
    cleanup: async () => {
      await llm.close();
      await fsp.rm(base, { recursive: true, force: true });
    },
  };
}

/** Where the client sees its workspace and turns: the host paths (runner none, local) or `/workspace` (bwrap). */
export function clientView(runner: InnerRunner | 'local', workspace: string): { workspace: string; turns: string } {
  const ws = runner === 'bwrap' ? '/workspace' : workspace;
  return { workspace: ws, turns: `${ws}/.genswarms/turns` };
}

/**
 * Writes the client's first-run state into the agent's state_dir (its HOME) as the agent: the endpoint, the key by
 * variable name (never the key), the workspace trusted, onboarding and permission prompts settled.
 */
export async function seedClientHome(
  world: PaneWorld,
  client: CodingClientName,
  swarm: string,
  agent: string,
  workspace: string,
): Promise<void> {
  const stateDir = stateDirFor(world.ctx.home, swarm, agent);
  const ids = agentIdentityOf(world.ctx);
  await ensurePrivateDir(stateDir, world.ctx.serverUid, ids);
  for (const [file, text] of Object.entries(clientFiles(client, world.llm.url, workspace))) {
    const full = path.join(stateDir, file);
    mkdirSync(path.dirname(full), { recursive: true, mode: 0o700 });
    writeFileSync(full, text, { mode: 0o600 });
  }
  chownTree(stateDir, ids.uid, ids.gid);
}

function clientFiles(client: CodingClientName, url: string, workspace: string): Record<string, string> {
  switch (client) {
    case 'codex':
      return {
        '.codex/config.toml': [
          'model_provider = "mock"',
          'model = "mock-model"',
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          // in config.toml, not as `--disable` flags: flags that differ from its background server's settings raise a dialog
          '[features]',
          'plugins = false',
          'remote_plugin = false',
          'apps = false',
          '[model_providers.mock]',
          'name = "mock"',
          `base_url = "${url}/v1"`,
          'env_key = "GENSWARMS_LLM_API_KEY"',
          'wire_api = "responses"',
          `[projects."${workspace}"]`,
          'trust_level = "trusted"',
          '',
        ].join('\n'),
      };
    case 'claude':
      return {
        '.claude.json': JSON.stringify({ hasCompletedOnboarding: true, projects: { [workspace]: { hasTrustDialogAccepted: true } } }),
        '.claude/settings.json': JSON.stringify({
          env: { ANTHROPIC_BASE_URL: url, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
          apiKeyHelper: 'printenv GENSWARMS_LLM_API_KEY',
          // auto mode (its default) asks its vendor's server about each action, and offers itself in a dialog
          permissions: { allow: ['Bash'], defaultMode: 'acceptEdits', disableAutoMode: 'disable' },
        }),
      };
    case 'opencode':
      return {};
  }
}

/** The variables a client needs besides its files (`config.env`): OpenCode's provider; Codex's TMPDIR outside HOME. */
export function clientEnv(client: CodingClientName, url: string, tmp: string | undefined): Record<string, string> {
  if (client === 'codex') return tmp === undefined ? {} : { TMPDIR: tmp };
  if (client === 'claude') return {};
  const provider = {
    npm: '@ai-sdk/openai-compatible',
    options: { baseURL: `${url}/v1`, apiKey: '{env:GENSWARMS_LLM_API_KEY}' },
    models: { 'mock-model': {} },
  };
  return {
    OPENCODE_CONFIG_CONTENT: JSON.stringify({ provider: { mock: provider }, model: 'mock/mock-model' }),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
  };
}

/** A pane or pty agent running the published `client` binary (`agent_binary_path`), with the world's key. */
export function clientSpec(
  world: PaneWorld,
  client: CodingClientName,
  binary: string,
  over: Pick<AgentLaunchSpec, 'agent' | 'backend' | 'workspace'> & {
    readonly runner?: InnerRunner;
    readonly env?: Record<string, string>;
    /** Extra argv words: the agent becomes a `command` client running the binary with them. */
    readonly args?: readonly string[];
  },
): AgentLaunchSpec {
  return {
    swarm: 'sw',
    agent: over.agent,
    backend: over.backend,
    ...(over.runner === undefined ? {} : { runner: over.runner }),
    client: over.args === undefined ? client : { command: [client, ...over.args] },
    apiKey: world.key,
    model: 'mock-model', // OpenCode's provider entry names one model (its adapter refuses none)
    network: 'open',
    workspace: over.workspace,
    skills: [],
    unsafeBypass: false,
    topologyTargets: [],
    config: { agent_binary_path: binary, env: over.env ?? {} },
    backendOpts: {},
  };
}

/** The turn of docs/messaging.md for the mock (tools/README.md "The coding-agent turn"). */
export function paneTurn(turnsDir: string, turnId: string): TurnDelivery {
  return { turnId, seq: 1, from: '_operator', content: 'summarise notes.md', clientTurnsDir: turnsDir };
}

function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, uid, gid);
    else chownSync(full, uid, gid);
  }
}
