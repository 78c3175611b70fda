import * as path from 'node:path';
import type { RunnerContext, SessionDescription } from '../port';
import { CGROUP_EXEC_PATH } from '../launcher/launcher';
import { stateDirFor } from '../state/state-dir';
import { NAME_RE } from '../tmux/tmux-words';
import { agentCgroupFor, type AgentCgroup, type CgroupOwner } from './agent-cgroup';
import { killAgentCgroup, prepareAgentCgroup, sweepEmptyCgroups } from './cgroup-ops';

/**
 * One runner instance's agent cgroups (local or tmux `runner: none`). The empty groups a crashed server
 * left under this owner's subtree are swept once, before the instance prepares its first group.
 */
export class RunnerCgroups {
  private swept: Promise<void> | undefined;

  constructor(private readonly owner: CgroupOwner) {}

  /** Pure: the agent's group, or undefined when this host tracks by no cgroup (`none`: best effort). */
  groupFor(ctx: RunnerContext, swarm: string, agent: string): AgentCgroup | undefined {
    return agentCgroupFor(ctx.processTracking, ctx.home, this.owner, swarm, agent);
  }

  /** Before a start: kills what a previous instance of the agent left in its group, then (re)creates it. */
  async prepare(ctx: RunnerContext, group: AgentCgroup): Promise<void> {
    this.swept ??= this.sweep(ctx, group);
    await this.swept;
    await prepareAgentCgroup(group);
  }

  /**
   * After a server restart, for an agent whose processes are never adopted (local): kills what is left
   * in its group (escaped processes; the client itself died with the server). Unknown shapes are ignored.
   */
  async reapLeftovers(description: SessionDescription, ctx: RunnerContext): Promise<void> {
    const names = path.relative(path.join(ctx.home, 'state'), description.stateDir).split(path.sep);
    const [swarm, agent] = names;
    if (names.length !== 2 || swarm === undefined || agent === undefined || !NAME_RE.test(swarm) || !NAME_RE.test(agent)) return;
    if (stateDirFor(ctx.home, swarm, agent) !== description.stateDir) return;
    const group = this.groupFor(ctx, swarm, agent);
    if (group !== undefined) await killAgentCgroup(group);
  }

  private async sweep(ctx: RunnerContext, group: AgentCgroup): Promise<void> {
    try {
      await sweepEmptyCgroups(group.tracking, ctx.home, this.owner);
    } catch {
      // best-effort: it removes EMPTY groups only, so a failure leaves an empty directory, never a process
    }
  }
}

/** `argv` behind `genswarms-cgroup-exec <cgroup.procs>`: the process joins the group before it can fork. */
export function joinCgroupArgv(group: AgentCgroup | undefined, argv: readonly string[]): readonly string[] {
  return group === undefined ? argv : [CGROUP_EXEC_PATH, group.procsFile, ...argv];
}
