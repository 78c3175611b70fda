import { describeProcessTracking, detectProcessTracking, type ProcessTracking } from '@genswarms/runners';
import type { Check } from './probes';

/**
 * How stop finds every process of a local or tmux `runner: none` agent on this host (the same detection
 * the server runs at boot): a cgroup per agent, or `none` — best effort, a setsid double fork escapes.
 * Run as the user the server runs as: v1 cgroups need root, v2 a delegated subtree.
 */
export function checkProcessTracking(detect: () => ProcessTracking = detectProcessTracking): Check {
  const tracking = detect();
  return { name: 'tracking', status: tracking.kind === 'none' ? 'missing' : 'ok', detail: describeProcessTracking(tracking) };
}
