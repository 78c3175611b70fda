import * as path from 'node:path';
import {
  buildEndpointPolicy,
  normalizeToken,
  parseBindAddress,
  parseCorsOrigins,
  parsePort,
  resolveConfigDir,
  SecurityError,
} from '@genswarms/security';
import {
  AgentIdRefusal,
  defaultClientsDir,
  parseAgentIdMode,
  parseEndpointApiList,
  resolveWorkspaceRoots,
  traversalGroup,
  type AgentIdMode,
  type EndpointApi,
} from '@genswarms/runners';
import { parseLogLevel } from '../logging/log-level';
import type { LogLevel } from '../logging/log-level';
import type { ServerConfig, ServerConfigLoad } from './server-config';
import { ensureServerHome } from './server-home';

/** The variables the server reads (README.md (Configuration)). */
export type ServerEnv = Readonly<Record<string, string | undefined>>;

/** Default cap on agents per swarm for dynamic mutations. */
export const DEFAULT_MAX_AGENTS_PER_SWARM = 100;
const MAX_AGENTS_UPPER = 100000;

class Refusal extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
    readonly line: string = `genswarms: invalid ${variable}: ${reason}`,
  ) {
    super(line);
  }
}

const isUnset = (v: string | undefined): boolean => v === undefined || v.trim() === '';

function guard<T>(variable: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof SecurityError) throw new Refusal(variable, err.message);
    throw err;
  }
}

function parseBind(raw: string | undefined): string {
  try {
    return parseBindAddress(raw);
  } catch (err) {
    if (!(err instanceof SecurityError)) throw err;
    // docs/security.md wording: `invalid GENSWARMS_HTTP_IP "<value>": expected an IPv4 or IPv6 address`.
    throw new Refusal('GENSWARMS_HTTP_IP', err.message, `genswarms: invalid GENSWARMS_HTTP_IP ${err.message}`);
  }
}

function parseMaxAgents(raw: string | undefined): number {
  if (isUnset(raw)) return DEFAULT_MAX_AGENTS_PER_SWARM;
  const value = (raw ?? '').trim();
  const n = /^[0-9]{1,6}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_AGENTS_UPPER) {
    throw new Refusal('GENSWARMS_MAX_AGENTS_PER_SWARM', `${JSON.stringify(value)}: expected an integer from 1 to ${MAX_AGENTS_UPPER}`);
  }
  return n;
}

/** GENSWARMS_SOCKET_MAX_BUFFER_BYTES bounds: 64 KiB (a few pushes) to 1 GiB. */
const SOCKET_BUFFER_MIN_BYTES = 65536;
const SOCKET_BUFFER_MAX_BYTES = 1073741824;

/** GENSWARMS_SOCKET_MAX_BUFFER_BYTES → what one socket.io connection may hold unsent (undefined: the default). */
function parseSocketBuffer(raw: string | undefined): number | undefined {
  if (isUnset(raw)) return undefined;
  const value = (raw ?? '').trim();
  const n = /^[0-9]{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < SOCKET_BUFFER_MIN_BYTES || n > SOCKET_BUFFER_MAX_BYTES) {
    throw new Refusal(
      'GENSWARMS_SOCKET_MAX_BUFFER_BYTES',
      `${JSON.stringify(value)}: expected an integer from ${SOCKET_BUFFER_MIN_BYTES} to ${SOCKET_BUFFER_MAX_BYTES} (bytes)`,
    );
  }
  return n;
}

function parseAgentIds(env: ServerEnv, server: { uid: number; gid: number }): AgentIdMode {
  try {
    return parseAgentIdMode(env, server);
  } catch (err) {
    if (err instanceof AgentIdRefusal) throw new Refusal(err.variable, err.reason);
    throw err;
  }
}

/** GENSWARMS_LLM_ENDPOINT_API → what the server's endpoint speaks; unset → undefined (inferred from its host). */
function parseEndpointApis(raw: string | undefined): readonly EndpointApi[] | undefined {
  if (isUnset(raw)) return undefined;
  const parsed = parseEndpointApiList(raw ?? '');
  if (parsed.kind === 'invalid') throw new Refusal('GENSWARMS_LLM_ENDPOINT_API', parsed.reason);
  return parsed.apis;
}

/** GENSWARMS_CLIENTS_DIR (absolute, no NUL) → where runners find the installed coding clients; unset → `<home>/clients`. */
function parseClientsDir(raw: string | undefined, home: string): string {
  if (isUnset(raw)) return defaultClientsDir(home);
  const dir = (raw ?? '').trim();
  if (!path.isAbsolute(dir) || dir.includes('\0')) throw new Refusal('GENSWARMS_CLIENTS_DIR', 'expected an absolute path');
  return path.resolve(dir);
}

function parseLevel(raw: string | undefined): LogLevel {
  const parsed = parseLogLevel(raw);
  if (parsed.kind === 'invalid') throw new Refusal('GENSWARMS_LOG_LEVEL', parsed.reason);
  return parsed.level;
}

async function resolveHome(raw: string | undefined, cwd: string, uid: number, traverseGid?: number): Promise<string> {
  const wanted = path.resolve(cwd, isUnset(raw) ? '.genswarms' : (raw ?? '').trim());
  if (wanted.includes('\0')) throw new Refusal('GENSWARMS_HOME', 'path contains NUL');
  const home = await ensureServerHome(wanted, uid, traverseGid);
  if (home.kind === 'unsafe') throw new Refusal('GENSWARMS_HOME', home.reason);
  return home.path;
}

/** GENSWARMS_WORKSPACE_ROOTS → real paths fixed at boot (docs/security.md "Workspace roots"); default `<home>/workspaces`. */
function parseWorkspaceRoots(env: ServerEnv, home: string): readonly string[] {
  const userHome = env['HOME']?.trim();
  const resolved = resolveWorkspaceRoots({
    raw: env['GENSWARMS_WORKSPACE_ROOTS'],
    home,
    ...(userHome === undefined || userHome === '' ? {} : { userHome }),
  });
  if (resolved.kind === 'invalid') throw new Refusal('GENSWARMS_WORKSPACE_ROOTS', resolved.reason);
  return resolved.roots;
}

async function buildConfig(env: ServerEnv, opts: { cwd: string; uid: number; gid?: number }): Promise<ServerConfig> {
  const bindAddress = parseBind(env['GENSWARMS_HTTP_IP']);
  const port = guard('PORT', () => parsePort(env['PORT']));
  const maxAgentsPerSwarm = parseMaxAgents(env['GENSWARMS_MAX_AGENTS_PER_SWARM']);
  const logLevel = parseLevel(env['GENSWARMS_LOG_LEVEL']);
  const socketMaxBufferedBytes = parseSocketBuffer(env['GENSWARMS_SOCKET_MAX_BUFFER_BYTES']);
  const endpointPolicy = guard('GENSWARMS_LLM_ENDPOINT', () =>
    buildEndpointPolicy({
      llmEndpoint: env['GENSWARMS_LLM_ENDPOINT'],
      allowedEndpoints: env['GENSWARMS_ALLOWED_ENDPOINTS'],
      apiKey: env['GENSWARMS_LLM_API_KEY'],
    }),
  );
  const endpointApis = parseEndpointApis(env['GENSWARMS_LLM_ENDPOINT_API']);
  const configDir = await resolveConfigDir(env['GENSWARMS_SWARM_CONFIG_DIR'], opts.cwd).catch((err: unknown) => {
    throw err instanceof SecurityError ? new Refusal('GENSWARMS_SWARM_CONFIG_DIR', err.message) : err;
  });
  const agentIds = parseAgentIds(env, { uid: opts.uid, gid: opts.gid ?? opts.uid });
  // a root server's agents pass through home by name (0710, group = the agents' traversal group): kept across boots
  const home = await resolveHome(env['GENSWARMS_HOME'], opts.cwd, opts.uid, traversalGroup(agentIds));
  const workspaceRoots = parseWorkspaceRoots(env, home);
  const clientsDir = parseClientsDir(env['GENSWARMS_CLIENTS_DIR'], home);
  const skillsRaw = env['GENSWARMS_SKILLS_ROOT'];
  return {
    tokens: { fullToken: normalizeToken(env['GENSWARMS_API_TOKEN']), configToken: normalizeToken(env['GENSWARMS_CONFIG_API_TOKEN']) },
    bindAddress,
    port,
    cors: parseCorsOrigins(env['GENSWARMS_CORS_ORIGINS']),
    configDir,
    endpointPolicy,
    ...(endpointApis === undefined ? {} : { endpointApis }),
    home,
    clientsDir,
    maxAgentsPerSwarm,
    agentIds,
    ...(agentIds.kind === 'per_agent' ? {} : { agent: { uid: agentIds.uid, gid: agentIds.gid } }),
    workspaceRoots,
    skillsRoot: isUnset(skillsRaw) ? path.join(home, 'skills') : path.resolve(opts.cwd, (skillsRaw ?? '').trim()),
    logLevel,
    ...(socketMaxBufferedBytes === undefined ? {} : { socketMaxBufferedBytes }),
  };
}

/**
 * Reads the server's environment once (README.md (Configuration)) into a plain `ServerConfig`. Any invalid variable
 * yields `{kind:'invalid', line}` where `line` is the exact stderr line to print before exiting 2.
 * Creates GENSWARMS_HOME (0700) if missing; reads nothing else.
 */
export async function loadServerConfig(env: ServerEnv, opts: { cwd: string; uid: number; gid?: number }): Promise<ServerConfigLoad> {
  try {
    return { kind: 'ok', config: await buildConfig(env, opts) };
  } catch (err) {
    if (err instanceof Refusal) return { kind: 'invalid', variable: err.variable, reason: err.reason, line: err.line };
    throw err;
  }
}
