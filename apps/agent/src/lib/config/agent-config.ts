import { isAbsolute, join } from 'node:path';
import { loadMockScript } from './mock-script';
import type { MockEntry } from './mock-script';
import { isName, unsetToUndefined } from './names';
import { parseClientExec, type ClientExec } from '../exec/client-exec-config';

/** How the agent answers a turn. Chosen once at start: a coding client > mock script > endpoint > none (error receipts). */
export type LlmMode =
  | { kind: 'endpoint'; endpoint: string; apiKey?: string; upstreamHost?: string; model?: string }
  /** A coding client run once per turn (GENSWARMS_CLIENT_EXEC); `env` is what it runs with (the agent's own, as the runner built it). */
  | { kind: 'client'; client: ClientExec['client']; argv: ClientExec['argv']; env: Readonly<Record<string, string>> }
  | { kind: 'mock'; script: readonly MockEntry[] }
  | { kind: 'none' };

export interface AgentConfig {
  readonly swarm: string;
  readonly agent: string;
  /** Absolute workspace path as the agent sees it (`/workspace` in a sandbox). */
  readonly workspace: string;
  readonly turnsDir: string;
  /** Outgoing targets at start (SWARM_TOPOLOGY), filtered to valid Names. */
  readonly topology: readonly string[];
  readonly llm: LlmMode;
  /** The host's turn timeout (GENSWARMS_TURN_TIMEOUT_MS): LLM retries never wait past it. */
  readonly turnTimeoutMs?: number;
}

export type AgentConfigLoad = { kind: 'ok'; config: AgentConfig } | { kind: 'invalid'; variable: string; reason: string };

/** Env variables the agent reads (once, at start). */
export type AgentEnv = Readonly<Record<string, string | undefined>>;

/** Largest GENSWARMS_TURN_TIMEOUT_MS (ms): one day, the config's own bound on `turn_timeout_ms`. */
export const TURN_TIMEOUT_MAX_MS = 86_400_000;

/** `host` or `host:port`, a bracketed IPv6 literal allowed. Checked because it becomes the Host header. */
const UPSTREAM_HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/** Parses the agent's environment. Reasons never include values (a key must never reach a log). */
export function loadAgentConfig(env: AgentEnv): AgentConfigLoad {
  const agent = unsetToUndefined(env['GENSWARMS_AGENT']);
  if (agent === undefined || !isName(agent)) return invalid('GENSWARMS_AGENT', 'must be a Name');
  const workspace = unsetToUndefined(env['GENSWARMS_WORKSPACE']);
  if (workspace === undefined || !isAbsolute(workspace)) return invalid('GENSWARMS_WORKSPACE', 'must be an absolute path');
  const turnsDir = unsetToUndefined(env['GENSWARMS_TURNS_DIR']) ?? join(workspace, '.genswarms', 'turns');
  if (!isAbsolute(turnsDir)) return invalid('GENSWARMS_TURNS_DIR', 'must be an absolute path');
  const llm = loadLlmMode(env);
  if (llm.kind === 'invalid') return llm;
  const turnTimeout = unsetToUndefined(env['GENSWARMS_TURN_TIMEOUT_MS']);
  if (turnTimeout !== undefined && !isTurnTimeoutMs(turnTimeout))
    return invalid('GENSWARMS_TURN_TIMEOUT_MS', `must be an integer 1..${TURN_TIMEOUT_MAX_MS}`);
  return {
    kind: 'ok',
    config: {
      swarm: unsetToUndefined(env['GENSWARMS_SWARM']) ?? '',
      agent,
      workspace,
      turnsDir,
      topology: parseTopology(env['SWARM_TOPOLOGY']),
      llm: llm.mode,
      ...(turnTimeout === undefined ? {} : { turnTimeoutMs: Number(turnTimeout) }),
    },
  };
}

/** Comma list; blanks, duplicates and words outside the Name grammar are dropped. */
export function parseTopology(raw: string | undefined): string[] {
  const names = (raw ?? '').split(',').map((word) => word.trim());
  return [...new Set(names.filter((word) => isName(word)))];
}

function loadLlmMode(env: AgentEnv): { kind: 'ok'; mode: LlmMode } | { kind: 'invalid'; variable: string; reason: string } {
  const exec = unsetToUndefined(env['GENSWARMS_CLIENT_EXEC']);
  if (exec !== undefined) {
    const parsed = parseClientExec(exec);
    if (parsed.kind === 'invalid') return invalid('GENSWARMS_CLIENT_EXEC', parsed.reason);
    return { kind: 'ok', mode: { kind: 'client', ...parsed.exec, env: clientEnvOf(env) } };
  }
  const mock = unsetToUndefined(env['GENSWARMS_MOCK_SCRIPT']);
  if (mock !== undefined) {
    const script = loadMockScript(mock);
    return script.kind === 'ok'
      ? { kind: 'ok', mode: { kind: 'mock', script: script.script } }
      : invalid('GENSWARMS_MOCK_SCRIPT', script.reason);
  }
  const endpoint = unsetToUndefined(env['GENSWARMS_LLM_ENDPOINT']);
  if (endpoint === undefined) return { kind: 'ok', mode: { kind: 'none' } };
  if (!isHttpUrl(endpoint)) return invalid('GENSWARMS_LLM_ENDPOINT', 'must be an http(s) URL with a host');
  const apiKey = unsetToUndefined(env['GENSWARMS_LLM_API_KEY']);
  if (apiKey !== undefined && /[\r\n\0]/.test(apiKey)) return invalid('GENSWARMS_LLM_API_KEY', 'contains a control character');
  const upstreamHost = unsetToUndefined(env['GENSWARMS_LLM_UPSTREAM_HOST']);
  if (upstreamHost !== undefined && !UPSTREAM_HOST_RE.test(upstreamHost))
    return invalid('GENSWARMS_LLM_UPSTREAM_HOST', 'must be host or host:port');
  const model = unsetToUndefined(env['GENSWARMS_MODEL']);
  return { kind: 'ok', mode: { kind: 'endpoint', endpoint, apiKey, upstreamHost, model } };
}

/** The client's environment: the agent's own as the runner built it (endpoint, key, HOME, PATH, the adapter's variables), minus the exec spec. */
function clientEnvOf(env: AgentEnv): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(env)) if (value !== undefined && name !== 'GENSWARMS_CLIENT_EXEC') out[name] = value;
  return out;
}

function isTurnTimeoutMs(raw: string): boolean {
  return /^[1-9][0-9]{0,7}$/.test(raw) && Number(raw) <= TURN_TIMEOUT_MAX_MS;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    // expected: an unparsable URL is not a valid endpoint
    return false;
  }
}

function invalid(variable: string, reason: string): { kind: 'invalid'; variable: string; reason: string } {
  return { kind: 'invalid', variable, reason };
}
