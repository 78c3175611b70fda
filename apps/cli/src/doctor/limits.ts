import { describeLimitSupport, detectLimitSupport, type LimitSupport } from '@genswarms/runners';
import { findOnPath } from '../cli/which';
import type { Check } from './probes';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Which of memory_limit, pids_limit, cpu_limit each backend can enforce on this host (docs/runners.md "Limits"):
 * bwrap and tmux+bwrap through a cgroup per agent (the same detection the server runs at boot), docker through its
 * engine, apple_container through the VM (memory and whole vCPUs), local, tmux none and ssh never (refused at plan).
 * Run as the user the server runs as: v1 cgroups need root, v2 a delegated subtree.
 */
export function checkLimits(detect: () => LimitSupport = detectLimitSupport): Check {
  const support = detect();
  const all = support.bases.memory !== undefined && support.bases.pids !== undefined && support.bases.cpu !== undefined;
  const detail = [
    `bwrap, tmux+bwrap: ${describeLimitSupport(support)}`,
    'docker, tmux+docker: memory_limit, pids_limit, cpu_limit (the engine)',
    'apple_container: memory_limit, whole cpu_limit (macOS only)',
    'local, tmux, ssh: none (refused at plan)',
  ].join(' | ');
  return { name: 'limits', status: all ? 'ok' : 'missing', detail };
}

/** Apple's `container` CLI: only on macOS, on the PATH the server resolves it on. The runner has not been run on macOS yet. */
export function checkAppleContainer(env: Env, platform: NodeJS.Platform = process.platform): Check {
  if (platform !== 'darwin') {
    return {
      name: 'apple container',
      status: 'missing',
      detail: `macOS only (this host: ${platform}): apple_container agents are refused`,
    };
  }
  const cli = findOnPath('container', env['PATH']);
  return cli === undefined
    ? { name: 'apple container', status: 'missing', detail: "Apple's container CLI is not on PATH: apple_container agents are refused" }
    : { name: 'apple container', status: 'ok', detail: `${cli} (the apple_container runner has not been run on macOS yet)` };
}
