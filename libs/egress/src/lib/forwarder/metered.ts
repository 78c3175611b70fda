import { connect, type Socket } from 'node:net';
import type { EgressTarget } from '../plan/target';
import type { EgressMeter } from '../relay/meter';
import type { RelayTimeouts } from '../relay/relay-limits';
import { startRelay, type RelayServer } from '../relay/relay-server';
import type { SocketClient } from '../socat/socat-args';

/** Suffix of socat's private socket when metered: `<home>/egress/<swarm>/<agent>.up.sock`, outside the bound directory. */
export const UPSTREAM_SOCKET_SUFFIX = '.up.sock';

/**
 * Where a metered forwarder's socat listens: beside the agent's egress directory, never in it (the directory
 * is bound into the sandbox; this socket must be reachable by the relay only). Agent names hold no `.`,
 * so it cannot be another agent's directory. Not longer than `<dir>/llm.sock`, which was validated.
 */
export function upstreamSocketPath(dir: string): string {
  return `${dir.replace(/\/+$/, '')}${UPSTREAM_SOCKET_SUFFIX}`;
}

/** The relay on the agent's socket, its upstream leg a fresh unix connection to socat per agent connection. */
export function startMeteredRelay(opts: {
  readonly socketPath: string;
  readonly upstreamPath: string;
  readonly target: EgressTarget;
  readonly meter: EgressMeter;
  readonly client?: SocketClient;
  readonly relayTimeouts?: Partial<RelayTimeouts>;
}): Promise<RelayServer> {
  const upstreamPath = opts.upstreamPath;
  return startRelay({
    socketPath: opts.socketPath,
    connectUpstream: (): Socket => connect(upstreamPath),
    upstreamHost: opts.target.upstreamHost,
    meter: opts.meter,
    ...(opts.client === undefined ? {} : { client: opts.client }),
    ...(opts.relayTimeouts === undefined ? {} : { timeouts: opts.relayTimeouts }),
  });
}
