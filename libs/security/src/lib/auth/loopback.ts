import { isIPv4, isIPv6 } from 'node:net';

/** Parses a dotted-quad into 4 bytes (caller has checked `isIPv4`). */
function ipv4Bytes(addr: string): number[] {
  return addr.split('.').map((part) => Number(part));
}

/**
 * Expands a valid IPv6 literal (no zone) into its 8 16-bit groups; an embedded dotted IPv4 tail
 * becomes two groups. Returns undefined for anything malformed.
 */
export function ipv6Groups(addr: string): number[] | undefined {
  if (!isIPv6(addr) || addr.includes('%')) return undefined;
  let text = addr.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(tail);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * docs/security.md: true for exactly IPv4 127.0.0.0/8, IPv6 `::1` in any spelling, and IPv4-mapped
 * `::ffff:127.0.0.0/104` (dotted or hex). Everything else, including zoned addresses, is false.
 */
export function isLoopback(addr: string | undefined): boolean {
  if (typeof addr !== 'string' || addr === '') return false;
  if (isIPv4(addr)) return ipv4Bytes(addr)[0] === 127;
  const groups = ipv6Groups(addr);
  if (groups === undefined) return false;
  const zeroPrefix = (n: number): boolean => groups.slice(0, n).every((g) => g === 0);
  if (zeroPrefix(7) && groups[7] === 1) return true;
  return zeroPrefix(5) && groups[5] === 0xffff && (groups[6] ?? 0) >> 8 === 127;
}
