import { lstat, rm, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import type { Forwarder } from '@genswarms/egress';
import { EGRESS_SOCKET_NAME, probeSocat, startForwarder } from '@genswarms/egress';
import type { RunnerContext, SessionDescription, SessionEgressPin } from '../port';
import { egressDirFor } from '../sandbox/mounts';
import { stateDirFor, verifyPrivateDir } from '../state/state-dir';
import { agentIdentityOf, needsPrivilegeDrop } from '../identity/agent-identity';
import type { PinRefusal } from './egress-pin';
import { checkStoredPin } from './egress-pin';
import { NAME_RE } from '../tmux/tmux-words'; // the one Name pattern (docs/configuration.md)

/** Why an isolated session's forwarder was not restarted (the container is then removed). */
export type ReadoptRefusal = PinRefusal | 'session_mismatch' | 'egress_dir_unsafe' | 'egress_unavailable';

export type EgressReadopt = { kind: 'ok'; forwarder: Forwarder; pin: SessionEgressPin } | { kind: 'refused'; reason: ReadoptRefusal };

export interface ReadoptInput {
  readonly description: SessionDescription;
  readonly ctx: RunnerContext;
  /** From the container's labels. */
  readonly swarm: string;
  readonly agent: string;
}

/**
 * After a server restart, for an isolated session whose sandbox still runs: re-validate the stored pin
 * against the current trust policy, check the egress directory is still our private directory (every
 * component under home a real directory, the leaf 0700 and ours, `llm.sock` absent or a socket), then
 * start a fresh forwarder on the same socket path. Nothing is spawned before every check passed.
 */
export async function readoptEgress(input: ReadoptInput): Promise<EgressReadopt> {
  const { description, ctx, swarm, agent } = input;
  const pin = checkStoredPin(description.egress, ctx);
  if (pin.kind === 'refused') return pin;
  if (!NAME_RE.test(swarm) || !NAME_RE.test(agent) || description.stateDir !== stateDirFor(ctx.home, swarm, agent)) {
    return { kind: 'refused', reason: 'session_mismatch' };
  }
  const dir = egressDirFor(ctx.home, swarm, agent);
  if (!(await isPrivateEgressDir(ctx, swarm, agent))) return { kind: 'refused', reason: 'egress_dir_unsafe' };
  const socat = ctx.binaries.socat;
  if (socat === undefined || !(await probeSocat(socat)).ok) return { kind: 'refused', reason: 'egress_unavailable' };
  try {
    const meter = ctx.egressMeter?.(swarm, agent);
    const forwarder = await startForwarder({
      socat,
      dir,
      target: pin.target,
      ...egressClientOf(ctx),
      ...(ctx.binaries.setpriv === undefined ? {} : { setpriv: ctx.binaries.setpriv }),
      ...(meter === undefined ? {} : { meter }),
    });
    return { kind: 'ok', forwarder, pin: pin.pin };
  } catch {
    // expected: a forwarder that cannot be re-adopted is refused as egress_unavailable
    return { kind: 'refused', reason: 'egress_unavailable' };
  }
}

async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await lstat(p);
  } catch {
    return undefined; // expected: absent (or unreadable), treated as not ours
  }
}

/** `<home>/egress`, `<home>/egress/<swarm>`, `<home>/egress/<swarm>/<agent>`: the components below home. */
function egressComponents(home: string, swarm: string, agent: string): readonly string[] {
  const top = path.join(home, 'egress');
  return [top, path.join(top, swarm), egressDirFor(home, swarm, agent)];
}

/** Every component exists as a real directory (lstat, no symlink); the leaf passes the fstat private-dir check; the socket slot holds a socket or nothing. */
async function isPrivateEgressDir(ctx: RunnerContext, swarm: string, agent: string): Promise<boolean> {
  const parts = egressComponents(ctx.home, swarm, agent);
  for (const p of parts) {
    const st = await lstatOrUndefined(p);
    if (st === undefined || st.isSymbolicLink() || !st.isDirectory()) return false;
  }
  const dir = egressDirFor(ctx.home, swarm, agent);
  try {
    await verifyEgressDir(dir, ctx);
  } catch {
    // expected: a dir that fails verification is not re-adopted
    return false;
  }
  const sock = await lstatOrUndefined(path.join(dir, EGRESS_SOCKET_NAME));
  return sock === undefined || sock.isSocket();
}

/**
 * Removes an agent's egress directory without following links: walking down from home, a symlink or
 * non-directory where a directory belongs is unlinked (only the leaf's; a planted parent is left alone
 * and nothing below it is touched); a real leaf directory is removed recursively (rm never follows links inside).
 */
export async function removeEgressDirSafely(home: string, swarm: string, agent: string): Promise<void> {
  if (!NAME_RE.test(swarm) || !NAME_RE.test(agent)) return;
  const parts = egressComponents(home, swarm, agent);
  for (const [i, p] of parts.entries()) {
    const st = await lstatOrUndefined(p);
    if (st === undefined) return;
    const leaf = i === parts.length - 1;
    if (st.isSymbolicLink() || !st.isDirectory()) {
      // best-effort: a planted leaf is removed when possible; nothing is ever followed through it
      if (leaf) await unlink(p).catch(() => undefined);
      return;
    }
    if (leaf) await rm(p, { recursive: true, force: true });
  }
}

/**
 * The forwarder's socket client for a docker agent: the agent identity when it is not the server (a root
 * server), so the container's non-root process may connect; nothing otherwise (0600, the server's own).
 */
export function egressClientOf(ctx: RunnerContext): { client?: { uid: number; gid: number } } {
  return needsPrivilegeDrop(ctx) ? { client: agentIdentityOf(ctx) } : {};
}

/**
 * The egress leaf as the forwarder leaves it: ours and 0700, or — when agents run under another uid — ours,
 * group the agent gid, exactly 0710 (search only). Anything else is not ours any more.
 */
async function verifyEgressDir(dir: string, ctx: RunnerContext): Promise<void> {
  if (!needsPrivilegeDrop(ctx)) return verifyPrivateDir(dir, ctx.serverUid);
  const st = await lstat(dir);
  if (!st.isDirectory() || st.uid !== ctx.serverUid || st.gid !== agentIdentityOf(ctx).gid || (st.mode & 0o7777) !== 0o710) {
    throw new Error("egress directory is not the forwarder's");
  }
}
