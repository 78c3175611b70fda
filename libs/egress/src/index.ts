/** @genswarms/egress: the host-side LLM forwarder of isolated agents (docs/security.md), pinned by the host. */
export { EgressError } from './lib/errors/egress-error';
export type { EgressErrorCode } from './lib/errors/egress-error';
export { planEgress } from './lib/plan/plan-egress';
export { isSafeTargetHost } from './lib/plan/host-syntax';
export { EGRESS_SOCKET_NAME, SANDBOX_EGRESS_DIR, SANDBOX_EGRESS_PORT, sandboxEndpoint } from './lib/plan/target';
export type { EgressTarget } from './lib/plan/target';
export { buildHostSocatArgs, UNIX_SOCKET_PATH_MAX_BYTES } from './lib/socat/socat-args';
export { isVersionAtLeast, parseSocatVersion, probeSocat, SOCAT_MIN_VERSION, SOCAT_PROBE_TIMEOUT_MS } from './lib/socat/probe-socat';
export type { SocatProbe } from './lib/socat/probe-socat';
export { FORWARDER_READY_TIMEOUT_MS, startForwarder } from './lib/forwarder/forwarder';
export type { Forwarder, ForwarderOptions } from './lib/forwarder/forwarder';
export { UPSTREAM_SOCKET_SUFFIX } from './lib/forwarder/metered';
export type { Admission, EgressMeter, RefusalKind, RelayFailure, RelayOutcome, RelayRejection, RelayRequest } from './lib/relay/meter';
export type { LlmUsage } from './lib/relay/usage-tally';
export {
  DEFAULT_RELAY_TIMEOUTS,
  RELAY_CONNECTIONS_MAX,
  REQUEST_HEAD_MAX_BYTES,
  RESPONSE_HEAD_MAX_BYTES,
  USAGE_TOKENS_MAX,
} from './lib/relay/relay-limits';
export type { RelayTimeouts } from './lib/relay/relay-limits';
export const PACKAGE_NAME = '@genswarms/egress';
