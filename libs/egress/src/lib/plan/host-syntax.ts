import { EgressError } from '../errors/egress-error';

/** DNS name / IPv4 as WHATWG URL leaves it (lower-case, punycode): labels of [a-z0-9_-] only. */
const DNS_HOST_RE = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?$/;
/** Bracketed IPv6 literal as URL serialises it (no zone id). */
const IPV6_HOST_RE = /^\[[0-9a-f:.]{2,45}\]$/;

/**
 * True when `host` is a plain hostname, IPv4 or bracketed IPv6 literal. Anything else (`,`, `!`,
 * `:` outside brackets, quotes, spaces...) could become socat address syntax, so it is never pinned.
 */
export function isSafeTargetHost(host: string): boolean {
  return DNS_HOST_RE.test(host) || IPV6_HOST_RE.test(host);
}

/** Throws `endpoint_not_allowed` unless host and port can be written into a socat address verbatim. */
export function assertSafeTarget(host: string, port: number): void {
  if (!isSafeTargetHost(host)) {
    throw new EgressError('endpoint_not_allowed', 'endpoint host cannot be pinned: it is not a plain hostname or IP literal', {
      endpoint: host,
    });
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new EgressError('endpoint_not_allowed', `endpoint port ${String(port)} is not an integer in 1-65535`, { endpoint: host });
  }
}
