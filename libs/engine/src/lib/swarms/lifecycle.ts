/** Swarm lifecycle transitions shared by start, stop, restart and recovery. */
import { EngineError } from '../errors/engine-error';
import type { Ports } from './engine-context';
import { viewBackend } from '@genswarms/ir-gate';
import { forEachBounded, interleaveByLane, STOP_CONCURRENCY } from './bounded';
import { assertName } from './helpers';
import type { SwarmRuntime } from './swarm-runtime';

/** The swarm is running (`swarm_started`, level warning when an agent failed to start) and pushed. */
export async function markRunning(ctx: Ports<'clock' | 'events' | 'pushes' | 'store'>, rt: SwarmRuntime): Promise<void> {
  rt.markRunning();
  await ctx.store.setSwarmStatus(rt.swarm, 'running', ctx.clock.now().toISOString());
  const failed = rt
    .sessionList()
    .filter((s) => s.state === 'failed')
    .map((s) => s.name);
  await ctx.events.emit({
    type: 'swarm_started',
    swarm: rt.swarm,
    agent: null,
    message: `Swarm ${rt.swarm} started.`,
    metadata: { agents: rt.sessionCount, objects: rt.objectCount, failed },
    ...(failed.length > 0 ? { level: 'warning' as const } : {}),
  });
  ctx.pushes.push(rt.swarm, { type: 'swarm_started', payload: { swarm: rt.swarm, status: 'running' } });
}

/** Stops every agent and object, drops the queue (one `inbox_dropped`), and records the swarm stopped. */
export async function stopRuntime(ctx: Ports<'clock' | 'events' | 'pushes' | 'runtimes' | 'store'>, rt: SwarmRuntime): Promise<void> {
  rt.markStopping();
  await ctx.store.setSwarmStatus(rt.swarm, 'stopping', ctx.clock.now().toISOString());
  // Bounded concurrency: one agent after another made a 1,000-agent stop take minutes. The stops take
  // turns between the tmux servers holding the windows: in agent order all 32 queued on one server at a time.
  const order = interleaveByLane(rt.sessionList(), (s) => s.stopLane);
  await forEachBounded(order, STOP_CONCURRENCY, async (s) => {
    await s.stop('stopped');
    await ctx.events.emit({ type: 'agent_stopped', swarm: rt.swarm, agent: s.name, message: `Agent ${s.name} stopped.` });
  });
  for (const o of rt.objectList()) {
    o.stop();
    await ctx.events.emit({ type: 'object_stopped', swarm: rt.swarm, agent: o.name, message: `Object ${o.name} stopped.` });
  }
  const dropped = await ctx.store.dropInbox(rt.swarm, null);
  if (dropped > 0) {
    await ctx.events.emit({
      type: 'inbox_dropped',
      swarm: rt.swarm,
      agent: null,
      message: `${dropped} queued item(s) dropped by the stop.`,
      metadata: { count: dropped, reason: 'swarm_stopped' },
    });
  }
  rt.markStopped();
  ctx.runtimes.delete(rt.swarm);
  await ctx.store.setSwarmStatus(rt.swarm, 'stopped', ctx.clock.now().toISOString());
  await ctx.events.emit({ type: 'swarm_stopped', swarm: rt.swarm, agent: null, message: `Swarm ${rt.swarm} stopped.` });
  ctx.pushes.push(rt.swarm, { type: 'swarm_stopped', payload: { swarm: rt.swarm } });
  if (usesTmux(rt)) await releaseUnusedTmux(ctx, rt);
}

/** Does the swarm run (or configure) a tmux agent? */
function usesTmux(rt: SwarmRuntime): boolean {
  return rt.sessionList().some((s) => s.spec.backend === 'tmux') || rt.effective.agents.some((a) => viewBackend(a.backend).type === 'tmux');
}

/**
 * The tmux server runs with `exit-empty off`, so nothing ends it when the last tmux swarm stops: once no
 * running (or starting) swarm uses tmux, the tmux runner is shut down (server and control client); the next
 * tmux start opens a new one. A DELETE left the tmux server running.
 */
async function releaseUnusedTmux(ctx: Ports<'runtimes'>, stopped: SwarmRuntime): Promise<void> {
  if (!stopped.runners.has('tmux')) return;
  for (const other of ctx.runtimes.values()) if (usesTmux(other)) return;
  await stopped.runners.get('tmux').close?.('shutdown');
}

/** 404 `swarm_not_found` unless the swarm is running or known to the store. */
export async function assertKnownSwarm(ctx: Ports<'runtimes' | 'store'>, swarm: string): Promise<void> {
  assertName('swarm', swarm);
  if (!ctx.runtimes.has(swarm) && (await ctx.store.getSwarm(swarm)) === null)
    throw new EngineError('swarm_not_found', `No swarm named ${swarm}.`);
}
