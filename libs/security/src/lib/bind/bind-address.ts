import { isIP } from 'node:net';
import { SecurityError } from '../errors/security-error';
import { ipv6Groups, isLoopback } from '../auth/loopback';

/** Default bind: loopback only. */
export const DEFAULT_BIND_ADDRESS = '127.0.0.1';
/** Default TCP port of the server. */
export const DEFAULT_PORT = 4000;

/**
 * docs/security.md: trimmed value, unset → 127.0.0.1. Must be an IPv4/IPv6 literal without zone or
 * brackets; anything else throws `invalid_bind_address` (never a silent fallback).
 */
export function parseBindAddress(raw: string | undefined): string {
  if (typeof raw !== 'string' || raw.trim() === '') return DEFAULT_BIND_ADDRESS;
  const value = raw.trim();
  if (value.includes('%') || value.includes('[') || value.includes(']') || isIP(value) === 0) {
    throw new SecurityError('invalid_bind_address', `${JSON.stringify(value)}: expected an IPv4 or IPv6 address`);
  }
  return value;
}

/** README.md (Configuration): digits only, 1–65535; unset → `fallback` (4000). Anything else throws `invalid_port`. */
export function parsePort(raw: string | undefined, fallback: number = DEFAULT_PORT): number {
  if (typeof raw !== 'string' || raw.trim() === '') return fallback;
  const value = raw.trim();
  const port = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new SecurityError('invalid_port', `${JSON.stringify(value)}: expected an integer from 1 to 65535`);
  }
  return port;
}

/** Hostname part of a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`); undefined when malformed. */
function hostnameOf(host: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::([0-9]{1,5}))?$/.exec(host);
  if (bracketed) return bracketed[1] !== undefined && isIP(bracketed[1]) === 6 ? bracketed[1] : undefined;
  const plain = /^([^:[\]]+)(?::([0-9]{1,5}))?$/.exec(host);
  return plain ? plain[1] : undefined;
}

function sameAddress(a: string, b: string): boolean {
  if (a === b) return true;
  const ga = ipv6Groups(a);
  const gb = ipv6Groups(b);
  return ga !== undefined && gb !== undefined && ga.every((g, i) => g === gb[i]);
}

/**
 * DNS-rebinding guard (docs/security.md step 4): the Host hostname must be `localhost`, a loopback IP
 * literal, or the bind address. A missing or malformed Host is refused.
 */
export function isHostHeaderAllowed(host: string | undefined, bindAddress: string): boolean {
  if (typeof host !== 'string' || host === '') return false;
  const name = hostnameOf(host.toLowerCase());
  if (name === undefined) return false;
  if (name === 'localhost' || isLoopback(name)) return true;
  return isIP(name) !== 0 && sameAddress(name, bindAddress.toLowerCase());
}
