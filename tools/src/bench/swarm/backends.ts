import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The backends the harness knows, in table order. */
export const BENCH_BACKENDS = ['mock', 'local', 'bwrap', 'tmux', 'tmux-bwrap'] as const;
export type BenchBackend = (typeof BENCH_BACKENDS)[number];

/**
 * The minimal `/bin/sh` client: it reads whatever is pasted into its pane, then sleeps. The harness writes
 * each turn's receipt itself (docs/agent.md#3-finishing-a-turn-the-receipt), so the client costs no CPU and every receipt → event figure
 * is the host's alone. While the harness measures task delivery it makes a FIFO `.bench-reads` in the
 * workspace; the client copies each line it reads into it (builtins only: no process per line).
 */
export const SH_CLIENT: readonly string[] = [
  '/bin/sh',
  '-c',
  'while IFS= read -r line; do [ -p .bench-reads ] && printf \'%s\\n\' "$line" > .bench-reads; done; exec /bin/sleep 2147483647',
];

/** Backends that run a sandbox (the launch goal is about these). */
export const SANDBOXED: ReadonlySet<BenchBackend> = new Set<BenchBackend>(['bwrap', 'tmux-bwrap']);
/** Backends whose agents are tmux panes. */
export const TMUX_BACKED: ReadonlySet<BenchBackend> = new Set<BenchBackend>(['tmux', 'tmux-bwrap']);

/** The agent entry of one bench agent. */
export function agentConfig(backend: BenchBackend, name: string): Record<string, unknown> {
  const client = { command: [...SH_CLIENT] };
  switch (backend) {
    case 'mock':
      return { name, backend: 'mock' };
    case 'local':
      return { name, backend: 'local', client };
    case 'bwrap':
      return { name, backend: 'bwrap', network: 'none', client };
    case 'tmux':
      return { name, backend: { type: 'tmux' }, client };
    case 'tmux-bwrap':
      return { name, backend: { type: 'tmux', runner: 'bwrap' }, network: 'none', client };
  }
}

/** The base name of a bench swarm's agents: one counted entry declares `a_1 … a_N`. */
export const AGENT_BASE = 'a';

/**
 * A swarm config of `n` agents `a_1 … a_N` on one backend, no topology: one entry with `count`, so N = 10,000 is a
 * few hundred bytes (written out it was over the server's 1 MiB body limit: 413 payload_too_large).
 */
export function swarmConfig(backend: BenchBackend, swarm: string, n: number): Record<string, unknown> {
  return { name: swarm, agents: [{ ...agentConfig(backend, AGENT_BASE), count: n }], options: { max_agents: Math.max(n, 1) } };
}

/** The name of the bench's `i`-th agent (from 0): `a_<i + 1>`, the names a counted entry declares. */
export function agentName(i: number): string {
  return `${AGENT_BASE}_${i + 1}`;
}

const TMUX = '/usr/bin/tmux';
const BWRAP = '/usr/bin/bwrap';

/** Why a backend cannot run here, or undefined when it can. */
export function unavailableReason(backend: BenchBackend): string | undefined {
  const needsTmux = backend === 'tmux' || backend === 'tmux-bwrap';
  const needsBwrap = backend === 'bwrap' || backend === 'tmux-bwrap';
  if (needsTmux && !existsSync(TMUX)) return `${TMUX} not installed`;
  if (needsBwrap) {
    if (!existsSync(BWRAP)) return `${BWRAP} not installed`;
    const probe = spawnSync(BWRAP, ['--unshare-user', '--ro-bind', '/', '/', '/bin/true'], {
      shell: false,
      stdio: 'ignore',
      timeout: 10_000,
    });
    if (probe.status !== 0) return 'bwrap cannot create a user namespace here';
  }
  return undefined;
}

export const TMUX_BIN = TMUX;
