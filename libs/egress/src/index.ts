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
export type { Forwarder } from './lib/forwarder/forwarder';
export const PACKAGE_NAME = '@genswarms/egress';
