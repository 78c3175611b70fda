import type { AgentLaunchSpec, BackendKind, InnerRunner, NetworkMode } from '../port';
import { RunnerError } from '../errors/runner-error';

/** Docker network names (docs/security.md). */
export const NETWORK_NAME_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

/** docs/security.md: keywords case-insensitive; `host` refused; anything else that is not a name → validation_failed. */
export function parseNetworkMode(raw: string | undefined): NetworkMode {
  if (raw === undefined) return 'open';
  const lower = raw.toLowerCase();
  if (lower === 'open' || lower === 'none' || lower === 'isolated') return lower;
  if (lower === 'host') throw new RunnerError('validation_failed', 'network "host" is refused (it shares the host namespace)');
  if (!NETWORK_NAME_RE.test(raw))
    throw new RunnerError('validation_failed', 'network must be open, none, isolated or a Docker network name');
  return { named: raw };
}

/** The string form stored and shown (`open`, `none`, `isolated` or the network name). */
export function networkLabel(network: NetworkMode): string {
  return typeof network === 'string' ? network : network.named;
}

type Column = 'open' | 'none' | 'isolated' | 'named';
type Row = Readonly<Record<Column, boolean>>;

const row = (open: boolean, none: boolean, isolated: boolean, named: boolean): Row => ({ open, none, isolated, named });

/** docs/security.md matrix, one row per backend (runner). `mock` accepts everything and ignores it. */
const MATRIX: Readonly<Record<string, Row>> = {
  local: row(true, false, false, false),
  bwrap: row(true, true, true, false),
  docker: row(true, true, true, true),
  'tmux:none': row(true, false, false, false),
  'tmux:bwrap': row(true, true, false, false),
  'tmux:docker': row(true, true, false, true),
  // Apple's container CLI: the default network or a named one; none has no CLI equivalent, and isolated fails
  // closed (no egress forwarding equivalent to the pinned host forwarder)
  apple_container: row(true, false, false, true),
  ssh: row(true, false, false, false),
  // Docker Swarm services: none = on no network, open = an attachable overlay per swarm, named = that overlay,
  // isolated = an --internal overlay per agent + a forwarder service pinned to the trusted endpoint (docs/runners.md)
  swarm: row(true, true, true, true),
  mock: row(true, true, true, true),
};

function matrixKey(backend: BackendKind, runner: InnerRunner | undefined): string {
  return backend === 'tmux' ? `tmux:${runner ?? 'none'}` : backend;
}

/** Refuses, at plan time, a network the backend cannot enforce → `unsupported_network` (agent, network). */
export function assertNetworkSupported(spec: AgentLaunchSpec): void {
  const column: Column = typeof spec.network === 'string' ? spec.network : 'named';
  const allowed = MATRIX[matrixKey(spec.backend, spec.runner)];
  if (allowed !== undefined && allowed[column]) return;
  const network = networkLabel(spec.network);
  throw new RunnerError('unsupported_network', `backend ${matrixKey(spec.backend, spec.runner)} cannot enforce network ${network}`, {
    agent: spec.agent,
    details: { agent: spec.agent, network },
  });
}
