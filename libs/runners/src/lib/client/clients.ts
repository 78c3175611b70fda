import { accessSync, constants as fsc, statSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentLaunchSpec, ClientSpec, RunnerContext } from '../port';
import { assertArgv } from '../argv/validate-argv';
import { RunnerError } from '../errors/runner-error';
import { clientNotExecutable, clientNotOnPath } from '../errors/binary-missing';
import { CLIENT_ADAPTERS } from './adapters/adapter-table';
import { installedClientFor, sandboxClientBinary } from './client-install';

/** Flags that switch a coding client's own sandbox/approvals off (docs/runners.md). */
export const BYPASS_FLAGS: readonly string[] = [
  '--dangerously-bypass-approvals-and-sandbox',
  '--yolo',
  '--dangerously-skip-permissions',
  '--allow-dangerously-skip-permissions',
];
/** Where an `agent_binary_path` and the genswarms-agent dist directory appear in a sandbox. */
export const SANDBOX_BIN_DIR = '/run/genswarms/bin';
export const SANDBOX_AGENT_DIR = '/run/genswarms/agent';
/** `command` clients: 1..256 words. */
export const COMMAND_MAX_WORDS = 256;
/** Base PATH of every client (docs/runners.md); `extra_path` entries are appended. */
export const CLIENT_BASE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Display name of a client (stored in session descriptions). */
export function clientName(client: ClientSpec): string {
  return typeof client === 'string' ? client : 'command';
}

/** Codex/claude/opencode are TUI clients (a pty or a tmux pane). */
export function isTuiClient(client: ClientSpec): boolean {
  return client === 'codex' || client === 'claude' || client === 'opencode';
}

/** True if argv switches a client's own safety off (a flag, `--flag=…`, or `--permission-mode bypassPermissions`). */
export function hasBypassFlag(argv: readonly string[]): boolean {
  return argv.some((word, i) => {
    if (BYPASS_FLAGS.some((flag) => word === flag || word.startsWith(`${flag}=`))) return true;
    if (word === '--permission-mode=bypassPermissions') return true;
    return word === '--permission-mode' && argv[i + 1] === 'bypassPermissions';
  });
}

/** The client's PATH: base + `extra_path` entries. */
export function clientPath(spec: AgentLaunchSpec): string {
  return [CLIENT_BASE_PATH, ...(spec.config.extra_path ?? [])].join(':');
}

/**
 * The client argv as it runs (docs/runners.md). `host`: the executable is resolved to an absolute path
 * on the client's PATH (→ `binary_missing`); `sandbox`: paths as the sandbox sees them.
 */
export function buildClientArgv(spec: AgentLaunchSpec, ctx: RunnerContext, where: 'host' | 'sandbox'): readonly string[] {
  const argv = rawClientArgv(spec, ctx, where);
  assertArgv(argv, spec.agent);
  if (hasBypassFlag(argv) && spec.unsafeBypass !== true) {
    throw new RunnerError('bypass_requires_opt_in', 'a bypass flag needs unsafe_bypass: true', { agent: spec.agent });
  }
  if (where === 'sandbox' || path.isAbsolute(argv[0] ?? '')) {
    if (where === 'host') assertExecutable(argv[0] ?? '', spec.agent);
    return argv;
  }
  return [resolveOnPath(argv[0] ?? '', clientPath(spec), spec.agent), ...argv.slice(1)];
}

function rawClientArgv(spec: AgentLaunchSpec, ctx: RunnerContext, where: 'host' | 'sandbox'): string[] {
  const client = spec.client;
  const binary = spec.config.agent_binary_path;
  const replaced = binary === undefined ? undefined : where === 'host' ? binary : `${SANDBOX_BIN_DIR}/${path.basename(binary)}`;
  if (typeof client !== 'string') {
    if (client.command.length < 1 || client.command.length > COMMAND_MAX_WORDS) {
      throw new RunnerError('validation_failed', `command must have 1..${COMMAND_MAX_WORDS} words`, { agent: spec.agent });
    }
    const [first = '', ...rest] = client.command;
    return [replaced ?? first, ...rest];
  }
  if (client === 'genswarms-agent') {
    if (replaced !== undefined) return [replaced];
    if (where === 'host') return [ctx.binaries.node, ctx.agentEntry];
    return [sandboxNodePath(ctx), `${SANDBOX_AGENT_DIR}/${path.basename(ctx.agentEntry)}`];
  }
  const installed = replaced === undefined ? installedClientFor(spec, ctx) : undefined;
  const executable = replaced ?? (installed === undefined ? client : where === 'host' ? installed.binary : sandboxClientBinary(installed));
  // no endpoint known here: the pane argv a client gets when it keeps its vendor defaults (client-launch.ts has the rest)
  const setup = CLIENT_ADAPTERS[client].setup({
    workspace: '/workspace',
    home: '/root',
    sandboxed: where === 'sandbox',
    unsafeBypass: spec.unsafeBypass === true,
    ...(spec.model === undefined ? {} : { model: spec.model }),
  });
  return [executable, ...setup.paneArgs];
}

/** Host system prefixes bound into bwrap sandboxes; node outside them is bound at SANDBOX_BIN_DIR/node. */
export const SANDBOX_SYSTEM_PREFIXES: readonly string[] = ['/usr', '/bin', '/lib', '/lib64', '/lib32', '/sbin'];

/** The node binary as a sandbox sees it. */
export function sandboxNodePath(ctx: RunnerContext): string {
  return isUnderSystem(ctx.binaries.node) ? ctx.binaries.node : `${SANDBOX_BIN_DIR}/node`;
}

export function isUnderSystem(p: string): boolean {
  return SANDBOX_SYSTEM_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

/** Absolute path of `name` on a PATH string, or `binary_missing`. */
export function resolveOnPath(name: string, searchPath: string, agent?: string): string {
  if (name.includes('/')) {
    throw new RunnerError(
      'binary_missing',
      `client executable ${name} must be a bare name (looked up on PATH) or an absolute path; fix client.command`,
      { ...agentOpt(agent), details: { binary: name } },
    );
  }
  for (const dir of searchPath.split(':')) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  throw clientNotOnPath(name, searchPath, agent);
}

function assertExecutable(file: string, agent: string): void {
  if (!isExecutable(file)) throw clientNotExecutable(file, agent);
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsc.X_OK);
    return statSync(file).isFile();
  } catch {
    return false; // expected: absent or not executable, the caller reports binary_missing
  }
}

function agentOpt(agent: string | undefined): { agent?: string } {
  return agent === undefined ? {} : { agent };
}
