import { isIP } from 'node:net';

/**
 * The ssh backend's `backend.host` grammar (docs/runners.md "ssh"): `user@host`, host = a DNS name,
 * an IPv4 literal or an IPv6 literal in brackets; `[:port]` only where the caller allows it (`genswarms ssh trust`).
 * No shell syntax, no spaces, nothing that starts with `-` (an `-oProxyCommand=…` can never reach an option parser).
 */
export interface SshTarget {
  readonly user: string;
  /** The host without brackets (an IPv6 literal is bare here). */
  readonly host: string;
  readonly port?: number;
}

export type SshTargetParse = { readonly kind: 'ok'; readonly value: SshTarget } | { readonly kind: 'invalid'; readonly reason: string };

/** POSIX-portable user names (useradd's default rule, upper case allowed). */
export const SSH_USER_RE = /^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A DNS name: dot-separated labels, each 1–63 chars of letters, digits and inner hyphens. */
export const SSH_HOSTNAME_RE = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
/** The longest `backend.host` accepted (bytes). */
export const SSH_TARGET_MAX_CHARS = 300;

function parsePort(text: string): number | null {
  if (!/^[0-9]{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

function splitHostPort(rest: string, allowPort: boolean): { host: string; port?: number } | string {
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) return 'an IPv6 literal needs its closing ]';
    const host = rest.slice(1, close);
    if (isIP(host) !== 6) return 'brackets hold an IPv6 literal only';
    const tail = rest.slice(close + 1);
    if (tail === '') return { host };
    if (!allowPort || !tail.startsWith(':')) return allowPort ? 'only :port may follow ]' : 'a port goes in opts.port';
    const port = parsePort(tail.slice(1));
    return port === null ? 'port must be 1..65535' : { host, port };
  }
  const colon = rest.lastIndexOf(':');
  if (colon >= 0) {
    if (!allowPort) return 'a port goes in opts.port (an IPv6 literal needs brackets)';
    const port = parsePort(rest.slice(colon + 1));
    if (port === null) return 'port must be 1..65535';
    return { host: rest.slice(0, colon), port };
  }
  return { host: rest };
}

/** Parses `user@host` (and `[:port]` when `allowPort`); never throws. The reason names the rule, not the value. */
export function parseSshTarget(text: unknown, opts: { readonly allowPort?: boolean } = {}): SshTargetParse {
  if (typeof text !== 'string') return { kind: 'invalid', reason: 'must be a string user@host' };
  if (text.length === 0 || text.length > SSH_TARGET_MAX_CHARS)
    return { kind: 'invalid', reason: `must be 1..${SSH_TARGET_MAX_CHARS} characters` };
  const at = text.indexOf('@');
  if (at <= 0 || text.indexOf('@', at + 1) >= 0) return { kind: 'invalid', reason: 'must be user@host (exactly one @, a user first)' };
  const user = text.slice(0, at);
  if (!SSH_USER_RE.test(user)) return { kind: 'invalid', reason: 'user must match ^[A-Za-z_][A-Za-z0-9_.-]{0,31}$' };
  const split = splitHostPort(text.slice(at + 1), opts.allowPort === true);
  if (typeof split === 'string') return { kind: 'invalid', reason: split };
  const { host } = split;
  const dottedDigits = /^[0-9.]+$/.test(host);
  const hostOk =
    isIP(host) === 6 ? text.includes('[') : isIP(host) === 4 || (!dottedDigits && SSH_HOSTNAME_RE.test(host) && host.length <= 253);
  if (!hostOk) return { kind: 'invalid', reason: 'host must be a DNS name, an IPv4 literal or [IPv6]' };
  return { kind: 'ok', value: { user, host, ...(split.port === undefined ? {} : { port: split.port }) } };
}
