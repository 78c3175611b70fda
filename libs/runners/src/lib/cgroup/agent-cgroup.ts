import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { NAME_RE } from '../tmux/tmux-words';
import type { ProcessTracking } from './cgroup-detect';

/** Which runner owns a group: each sweeps only its own subtree, so one cannot remove a group the other just made. */
export type CgroupOwner = 'local' | 'tmux';
const OWNERS: ReadonlySet<string> = new Set<CgroupOwner>(['local', 'tmux']);

/** Top directory of every genswarms group under the tracking root. */
export const CGROUP_TOP_DIR = 'genswarms';
/** Hex characters of sha256(home) naming a home's subtree: servers (and specs) on other homes never meet. */
export const HOME_ID_HEX_CHARS = 16;

export type CgroupTracking = Exclude<ProcessTracking, { readonly kind: 'none' }>;

/** One agent's cgroup: `<root>/genswarms/<home-id>/<owner>/<swarm>/<agent>`. */
export interface AgentCgroup {
  readonly tracking: CgroupTracking;
  readonly dir: string;
  /** Where a process writes its own pid to join (the constant `genswarms-cgroup-exec` does, before exec). */
  readonly procsFile: string;
}

/** `<root>/genswarms/<home-id>`: every group of one GENSWARMS_HOME. */
export function homeCgroupDir(tracking: CgroupTracking, home: string): string {
  return path.join(tracking.root, CGROUP_TOP_DIR, homeIdOf(home));
}

/** The first HOME_ID_HEX_CHARS hex characters of sha256(home). */
export function homeIdOf(home: string): string {
  return createHash('sha256').update(home, 'utf8').digest('hex').slice(0, HOME_ID_HEX_CHARS);
}

/**
 * Pure: the agent's group, or undefined when this host tracks by no cgroup. Path components come from
 * validated Names only (no `/`, `.`, `..`, NUL): anything else is `validation_failed`, never a path.
 */
export function agentCgroupFor(
  tracking: ProcessTracking | undefined,
  home: string,
  owner: CgroupOwner,
  swarm: string,
  agent: string,
): AgentCgroup | undefined {
  if (!OWNERS.has(owner) || !NAME_RE.test(swarm) || !NAME_RE.test(agent)) {
    throw new RunnerError('validation_failed', 'cgroup names are built from validated swarm and agent Names only', { details: { owner } });
  }
  if (tracking === undefined || tracking.kind === 'none') return undefined;
  const base = homeCgroupDir(tracking, home);
  const dir = path.join(base, owner, swarm, agent);
  if (path.dirname(path.dirname(path.dirname(dir))) !== base)
    throw new RunnerError('validation_failed', 'cgroup path escaped its home subtree');
  return { tracking, dir, procsFile: path.join(dir, 'cgroup.procs') };
}
