import type { RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';

/** The uid:gid an agent's client runs as, and owns its workspace and state_dir with (docs/security.md#one-identity-per-agent). */
export interface AgentIdentity {
  readonly uid: number;
  readonly gid: number;
}

/**
 * uid and gid agents run as when the server runs as root and the operator named none
 * (`GENSWARMS_AGENT_UID`/`GENSWARMS_AGENT_GID`): the conventional unprivileged "nonroot" id of distroless images.
 */
export const DEFAULT_AGENT_UID = 65532;
export const DEFAULT_AGENT_GID = 65532;
/** Largest configurable agent uid/gid: int32, so every tool (setpriv, Docker `User`, tar) takes it. */
export const AGENT_ID_MAX = 2147483647;

/** What the operator configured; the server parses the variables, libraries never read env. */
export interface AgentIdentityInput {
  readonly serverUid: number;
  readonly serverGid: number;
  readonly uid?: number;
  readonly gid?: number;
}

export type AgentIdentityResolution =
  { kind: 'ok'; identity: AgentIdentity } | { kind: 'invalid'; variable: 'GENSWARMS_AGENT_UID' | 'GENSWARMS_AGENT_GID'; reason: string };

/**
 * The uid rule: no agent ever runs as uid 0. A non-root server runs agents as itself (it cannot switch,
 * and a configured id other than its own is refused, never silently ignored); a root server runs them as
 * the configured id, else DEFAULT_AGENT_UID:DEFAULT_AGENT_GID (gid defaults to the configured uid).
 */
export function resolveAgentIdentity(input: AgentIdentityInput): AgentIdentityResolution {
  for (const [variable, value] of [
    ['GENSWARMS_AGENT_UID', input.uid],
    ['GENSWARMS_AGENT_GID', input.gid],
  ] as const) {
    if (value !== undefined && !isAgentId(value))
      return { kind: 'invalid', variable, reason: `expected an integer from 1 to ${AGENT_ID_MAX} (never 0: agents do not run as root)` };
  }
  if (input.serverUid !== 0) {
    if (input.uid !== undefined && input.uid !== input.serverUid) {
      return { kind: 'invalid', variable: 'GENSWARMS_AGENT_UID', reason: 'only a server running as root can run agents under another uid' };
    }
    if (input.gid !== undefined && input.gid !== input.serverGid) {
      return { kind: 'invalid', variable: 'GENSWARMS_AGENT_GID', reason: 'only a server running as root can run agents under another gid' };
    }
    return { kind: 'ok', identity: { uid: input.serverUid, gid: input.serverGid } };
  }
  const uid = input.uid ?? DEFAULT_AGENT_UID;
  const gid = input.gid ?? (input.uid === undefined ? DEFAULT_AGENT_GID : uid);
  return { kind: 'ok', identity: { uid, gid } };
}

/** Digits only, 1..AGENT_ID_MAX: the text form of GENSWARMS_AGENT_UID/GID. Anything else → undefined. */
export function parseAgentId(raw: string): number | undefined {
  const text = raw.trim();
  if (!/^[0-9]{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return isAgentId(n) ? n : undefined;
}

function isAgentId(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1 && n <= AGENT_ID_MAX;
}

/**
 * The context's agent identity; a context built without one still never yields uid 0 for a root server. A
 * context of a server that gives each agent its own identity (`agentGroup` set) and that names none for this
 * agent is refused: the agent is never started under some default id instead (fail-closed).
 */
export function agentIdentityOf(ctx: RunnerContext): AgentIdentity {
  if (ctx.agent !== undefined) return ctx.agent;
  if (ctx.agentGroup !== undefined)
    throw new RunnerError('runner_error', 'no identity was allocated for this agent (refused: it would share an id)');
  const resolved = resolveAgentIdentity({ serverUid: ctx.serverUid, serverGid: ctx.serverGid });
  if (resolved.kind === 'invalid') throw new RunnerError('validation_failed', resolved.reason); // unreachable without configured ids
  return resolved.identity;
}

/** The group of the search-only directories on the way to an agent's own: the shared agent group, else the agent's gid. */
export function traversalGroupOf(ctx: RunnerContext): number {
  return ctx.agentGroup ?? agentIdentityOf(ctx).gid;
}

/** True when clients must be switched to another uid than the server's (the server runs as root). */
export function needsPrivilegeDrop(ctx: RunnerContext): boolean {
  return agentIdentityOf(ctx).uid !== ctx.serverUid;
}

/**
 * Unsandboxed clients (local, tmux runner `none`) of a root server: `setpriv --reuid U --regid G
 * --clear-groups --` before the client argv, so the client and everything it starts run as the agent
 * (no supplementary groups, so no root group either). With one identity per agent (`ctx.agentGroup`), the
 * only supplementary group is the agents' shared traversal group (`--groups=T` instead of `--clear-groups`):
 * it opens the search-only directories on the way to the agent's own, nothing else. Empty when the server is
 * not root. No setpriv → `binary_missing` (refused, never run as root).
 */
export function privilegeDropWords(ctx: RunnerContext, agent: string): readonly string[] {
  if (!needsPrivilegeDrop(ctx)) return [];
  const setpriv = ctx.binaries.setpriv;
  if (setpriv === undefined) {
    throw new RunnerError(
      'binary_missing',
      'setpriv (util-linux) is required to run an unsandboxed agent under the agent uid when the server runs as root',
      { agent },
    );
  }
  const { uid, gid } = agentIdentityOf(ctx);
  const groups = ctx.agentGroup !== undefined && ctx.agentGroup !== gid ? `--groups=${ctx.agentGroup}` : '--clear-groups';
  return [setpriv, `--reuid=${uid}`, `--regid=${gid}`, groups, '--'];
}

/** `ensureWorkspaceDir`'s owners for this context: the server uid and the agent identity. */
export function workspaceOwners(ctx: RunnerContext): { readonly serverUid: number; readonly agent: AgentIdentity } {
  return { serverUid: ctx.serverUid, agent: agentIdentityOf(ctx) };
}
