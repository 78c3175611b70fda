import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import { isExecutable } from '../client/clients';
import { DEFAULT_SYSTEM_PATHS } from '../sandbox/mounts';
import { detectProcessTracking, type ProcessTracking } from '../cgroup/cgroup-detect';
import { detectLimitSupport, type LimitSupport } from '../cgroup/limit-detect';
import { resolveAgentIdentity } from '../identity/agent-identity';
import type { AgentIdRange } from '../identity/agent-id-range';

/** What the app read once at boot; libraries never read process.env themselves. */
export interface RunnerContextInput {
  /** The PATH string to resolve binaries on (the app passes its own PATH). */
  readonly path: string;
  /** GENSWARMS_HOME (already created 0700 by the app); stored as its real path. */
  readonly home: string;
  readonly uid: number;
  readonly gid: number;
  /** GENSWARMS_AGENT_UID / GENSWARMS_AGENT_GID as parsed by the app (root server only; see `resolveAgentIdentity`). */
  readonly agentUid?: number;
  readonly agentGid?: number;
  /**
   * A root server that gives each agent its own ids (`GENSWARMS_AGENT_UID_RANGE`, parsed and checked by the app):
   * the context gets `agentGroup` = `first` and no `agent`; the engine allocates each agent's pair from the range.
   */
  readonly agentIdRange?: AgentIdRange;
  /** Built `genswarms-agent` entry (e.g. apps/agent/dist/main.js). */
  readonly agentEntry: string;
  readonly llm: RunnerContext['llm'];
  /** Absolute node binary; default: `node` on `path`. */
  readonly node?: string;
  readonly dockerHost?: string;
  /** The server user's home directory (refused as a workspace). */
  readonly userHome?: string;
  /** GENSWARMS_WORKSPACE_ROOTS as `resolveWorkspaceRoots` returned it; default `[<home>/workspaces]`. */
  readonly workspaceRoots?: readonly string[];
  /** Override of the bwrap system binds (tests); default: the existing DEFAULT_SYSTEM_PATHS. */
  readonly systemPaths?: readonly string[];
  /** Override of the detected process tracking (tests force `none`); default: `detectProcessTracking()`. */
  readonly processTracking?: ProcessTracking;
  /** Override of the detected limit support (tests); default: `detectLimitSupport()`. */
  readonly limitSupport?: LimitSupport;
  /** `GENSWARMS_CLIENTS_DIR` (absolute) or `$GENSWARMS_HOME/clients`, as the app parsed it; absent = the PATH only. */
  readonly clientsDir?: string;
}

/** Resolve `name` on a PATH string to an absolute executable, or undefined. */
export function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(':')) {
    if (!path.isAbsolute(dir)) continue; // relative PATH entries would depend on the cwd
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Resolve every binary once, at boot. node is required (`binary_missing`). */
export function buildRunnerContext(input: RunnerContextInput): RunnerContext {
  const find = (name: string): string | undefined => findOnPath(name, input.path);
  const node = input.node ?? find('node');
  if (node === undefined || !path.isAbsolute(node) || !isExecutable(node)) {
    throw new RunnerError('binary_missing', 'node was not found as an absolute executable');
  }
  if (!path.isAbsolute(input.agentEntry)) throw new RunnerError('validation_failed', 'agentEntry must be an absolute path');
  if (input.clientsDir !== undefined && !path.isAbsolute(input.clientsDir))
    throw new RunnerError('validation_failed', 'clientsDir must be an absolute path');
  const agent = resolveAgentIdentity({
    serverUid: input.uid,
    serverGid: input.gid,
    ...optNum('uid', input.agentUid),
    ...optNum('gid', input.agentGid),
  });
  if (agent.kind === 'invalid') throw new RunnerError('validation_failed', `${agent.variable}: ${agent.reason}`);
  const range = input.agentIdRange;
  if (range !== undefined && (input.uid !== 0 || input.agentUid !== undefined || input.agentGid !== undefined)) {
    throw new RunnerError('validation_failed', 'an agent id range needs a root server and no fixed agent uid/gid');
  }
  const binaries = {
    node,
    ...opt('xargs', find('xargs')),
    ...opt('bwrap', find('bwrap')),
    ...opt('tmux', find('tmux')),
    ...opt('socat', find('socat')),
    ...opt('docker', find('docker')),
    ...opt('nixStore', find('nix-store')),
    ...opt('setpriv', find('setpriv')),
  };
  return {
    home: realpathSync(input.home),
    serverUid: input.uid,
    serverGid: input.gid,
    ...(range === undefined ? { agent: agent.identity } : { agentGroup: range.first, agentIdRange: range }),
    binaries,
    agentEntry: input.agentEntry,
    llm: input.llm,
    searchPath: input.path,
    systemPaths: input.systemPaths ?? DEFAULT_SYSTEM_PATHS.filter((p) => existsSync(p)),
    processTracking: input.processTracking ?? detectProcessTracking(),
    limitSupport: input.limitSupport ?? detectLimitSupport(),
    ...(input.dockerHost === undefined ? {} : { dockerHost: input.dockerHost }),
    ...(input.userHome === undefined ? {} : { userHome: input.userHome }),
    ...(input.workspaceRoots === undefined ? {} : { workspaceRoots: [...input.workspaceRoots] }),
    ...(input.clientsDir === undefined ? {} : { clientsDir: input.clientsDir }),
  };
}

function opt<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function optNum<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
