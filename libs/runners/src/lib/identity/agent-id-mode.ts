import { parseAgentId, resolveAgentIdentity } from './agent-identity';
import {
  agentIdRangeConflict,
  DEFAULT_AGENT_ID_RANGE,
  parseAgentIdRange,
  readHostIdDatabases,
  type AgentIdRange,
  type HostIdDatabases,
} from './agent-id-range';

/**
 * Which ids agents run as (docs/security.md "One identity per agent"):
 * - `self`: a non-root server runs every agent as itself (it cannot switch);
 * - `per_agent`: a root server gives each agent its own uid:gid from `GENSWARMS_AGENT_UID_RANGE`;
 * - `shared`: a root server with `GENSWARMS_SHARED_AGENT_UID=1` runs every agent as one uid (weaker: unsandboxed
 *   agents can then read and signal each other).
 */
export type AgentIdMode =
  | { readonly kind: 'self'; readonly uid: number; readonly gid: number }
  | { readonly kind: 'shared'; readonly uid: number; readonly gid: number }
  | { readonly kind: 'per_agent'; readonly range: AgentIdRange };

/** A refusal of the variables (the app prints `invalid <variable>: <reason>` and exits). */
export class AgentIdRefusal extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`${variable}: ${reason}`);
    Object.defineProperty(this, 'name', { value: 'AgentIdRefusal', enumerable: false, configurable: true });
  }
}

/** One line for `genswarms doctor` and the boot log: which mode is in force and what it promises. */
export function describeAgentIdMode(mode: AgentIdMode): string {
  switch (mode.kind) {
    case 'self':
      return `every agent runs as the server's own uid ${mode.uid} (a non-root server cannot switch): unsandboxed agents can read each other and the server's files; use bwrap or docker`;
    case 'shared':
      return `every agent shares uid ${mode.uid}:${mode.gid} (GENSWARMS_SHARED_AGENT_UID=1, weaker): unsandboxed agents can read and signal each other`;
    case 'per_agent':
      return `one uid:gid per agent from ${mode.range.first + 1}-${mode.range.last} (group ${mode.range.first} opens the way to their own directories): no agent reads, signals or enters another`;
  }
}

/** The variables as the app read them (a library never reads process.env). */
type Env = Readonly<Record<string, string | undefined>>;
const isUnset = (v: string | undefined): boolean => v === undefined || v.trim() === '';
const ID_RANGE_TEXT = 'expected an integer from 1 to 2147483647 (never 0: agents do not run as root)';

function parseIds(env: Env): { uid?: number; gid?: number } {
  const ids: { uid?: number; gid?: number } = {};
  for (const [variable, key] of [
    ['GENSWARMS_AGENT_UID', 'uid'],
    ['GENSWARMS_AGENT_GID', 'gid'],
  ] as const) {
    const raw = env[variable];
    if (isUnset(raw)) continue;
    const value = parseAgentId(raw ?? '');
    if (value === undefined) throw new AgentIdRefusal(variable, `${JSON.stringify((raw ?? '').trim())}: ${ID_RANGE_TEXT}`);
    ids[key] = value;
  }
  return ids;
}

function parseShared(raw: string | undefined): boolean {
  if (isUnset(raw)) return false;
  const value = (raw ?? '').trim();
  if (value === '1') return true;
  if (value === '0') return false;
  throw new AgentIdRefusal('GENSWARMS_SHARED_AGENT_UID', `${JSON.stringify(value)}: expected 1 (every agent shares one uid) or 0`);
}

/**
 * GENSWARMS_AGENT_UID / _GID, GENSWARMS_SHARED_AGENT_UID and GENSWARMS_AGENT_UID_RANGE → the mode. A
 * contradiction (a fixed uid without the explicit shared opt-in, a range with it, a range on a non-root
 * server) or a range that overlaps the host's users, groups or subordinate ids refuses to start.
 */
export function parseAgentIdMode(
  env: Env,
  server: { uid: number; gid: number },
  hostIds: () => HostIdDatabases = readHostIdDatabases,
): AgentIdMode {
  const ids = parseIds(env);
  const shared = parseShared(env['GENSWARMS_SHARED_AGENT_UID']);
  const rangeRaw = env['GENSWARMS_AGENT_UID_RANGE'];
  if (server.uid !== 0) {
    if (!isUnset(rangeRaw))
      throw new AgentIdRefusal('GENSWARMS_AGENT_UID_RANGE', 'only a server running as root can give agents their own ids');
    const resolved = resolveAgentIdentity({ serverUid: server.uid, serverGid: server.gid, ...ids });
    if (resolved.kind === 'invalid') throw new AgentIdRefusal(resolved.variable, resolved.reason);
    return { kind: 'self', ...resolved.identity };
  }
  if (shared) {
    if (!isUnset(rangeRaw))
      throw new AgentIdRefusal(
        'GENSWARMS_AGENT_UID_RANGE',
        'cannot be combined with GENSWARMS_SHARED_AGENT_UID=1 (one shared uid, or one uid per agent)',
      );
    const resolved = resolveAgentIdentity({ serverUid: server.uid, serverGid: server.gid, ...ids });
    if (resolved.kind === 'invalid') throw new AgentIdRefusal(resolved.variable, resolved.reason);
    return { kind: 'shared', ...resolved.identity };
  }
  if (ids.uid !== undefined || ids.gid !== undefined) {
    throw new AgentIdRefusal(
      ids.uid !== undefined ? 'GENSWARMS_AGENT_UID' : 'GENSWARMS_AGENT_GID',
      'a root server gives each agent its own uid (GENSWARMS_AGENT_UID_RANGE); to run every agent as this one uid instead (weaker: unsandboxed agents can read each other), also set GENSWARMS_SHARED_AGENT_UID=1',
    );
  }
  let range = DEFAULT_AGENT_ID_RANGE;
  if (!isUnset(rangeRaw)) {
    const parsed = parseAgentIdRange(rangeRaw ?? '');
    if (parsed.kind === 'invalid')
      throw new AgentIdRefusal('GENSWARMS_AGENT_UID_RANGE', `${JSON.stringify((rangeRaw ?? '').trim())}: ${parsed.reason}`);
    range = parsed.range;
  }
  const conflict = agentIdRangeConflict(range, hostIds());
  if (conflict !== undefined) {
    throw new AgentIdRefusal('GENSWARMS_AGENT_UID_RANGE', `${range.first}-${range.last}: ${conflict}; choose another range`);
  }
  return { kind: 'per_agent', range };
}

/** The group of the search-only directories on the way to agents' directories (undefined: agents are the server). */
export function traversalGroup(mode: AgentIdMode): number | undefined {
  if (mode.kind === 'per_agent') return mode.range.first;
  if (mode.kind === 'shared') return mode.gid;
  return undefined;
}
