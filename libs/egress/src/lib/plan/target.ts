/** Where the host-side forwarder connects: decided by the host from the effective endpoint, never by the agent. */
export interface EgressTarget {
  /** `hostOf(endpoint)`: lower-case DNS name (punycode), IPv4, or bracketed IPv6. */
  readonly host: string;
  readonly port: number;
  /** `https` endpoint → socat `OPENSSL:` with certificate and name checks. */
  readonly tls: boolean;
  /** The pinned endpoint's path and query ('' for a bare `/`), appended to the sandbox endpoint. */
  readonly pathAndQuery: string;
  /** `Host` header the agent sends: host, plus `:port` when not the scheme default. */
  readonly upstreamHost: string;
}

/** Sandbox path where the egress directory (holding `llm.sock`) is bound read-only. */
export const SANDBOX_EGRESS_DIR = '/run/genswarms/egress';
/** Loopback port inside the sandbox where the launcher's bridge listens. */
export const SANDBOX_EGRESS_PORT = 17080;
/** File name of the forwarder's unix socket inside the egress directory. */
export const EGRESS_SOCKET_NAME = 'llm.sock';

/** The endpoint the sandboxed client is given: the loopback bridge plus the pinned path and query. */
export function sandboxEndpoint(target: EgressTarget): string {
  return `http://127.0.0.1:${SANDBOX_EGRESS_PORT}${target.pathAndQuery}`;
}
