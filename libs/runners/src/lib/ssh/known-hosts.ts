/**
 * OpenSSH `known_hosts` (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"): parse and look up host keys.
 * Pure: no I/O. Supported: plain and comma lists, `*`/`?` wildcards, `!` negation, `[host]:port`,
 * hashed `|1|salt|hmac-sha1`, `@revoked`. `@cert-authority` lines are kept but never make a key trusted
 * (this backend does not accept host certificates; docs/security.md "ssh trust model").
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type KnownHostMarker = 'none' | 'revoked' | 'cert-authority';

export interface KnownHostEntry {
  readonly marker: KnownHostMarker;
  /** Comma-separated patterns, or one hashed `|1|salt|hash` entry. */
  readonly patterns: readonly string[];
  readonly keyType: string;
  /** The SSH wire-format public key blob. */
  readonly key: Buffer;
  /** 1-based line number (for messages; never the key). */
  readonly line: number;
}

/** Cap on one known_hosts file (bytes); larger files are refused, not truncated. */
export const KNOWN_HOSTS_MAX_BYTES = 4 * 1024 * 1024;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;
const KEY_TYPE_RE = /^[a-z0-9@._-]{1,64}$/;

/** `SHA256:<base64 without padding>` of a key blob, as `ssh-keygen -l` prints it. */
export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named inside a wire-format blob (`ssh-ed25519`, `ecdsa-sha2-nistp256`, …), or null if malformed. */
export function keyTypeOfBlob(key: Buffer): string | null {
  if (key.length < 4) return null;
  const len = key.readUInt32BE(0);
  if (len === 0 || len > 64 || key.length < 4 + len) return null;
  const type = key.subarray(4, 4 + len).toString('latin1');
  return KEY_TYPE_RE.test(type) ? type : null;
}

/** The name OpenSSH looks up: `host` on port 22, else `[host]:port` (IPv6 bare inside the brackets). */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function parseLine(raw: string, line: number): KnownHostEntry | null {
  const fields = raw.trim().split(/[ \t]+/);
  let marker: KnownHostMarker = 'none';
  if (fields[0] === '@revoked' || fields[0] === '@cert-authority') {
    marker = fields[0] === '@revoked' ? 'revoked' : 'cert-authority';
    fields.shift();
  } else if (fields[0]?.startsWith('@') === true) {
    return null; // an unknown marker: OpenSSH skips the line too
  }
  const [hosts, keyType, b64] = fields;
  if (hosts === undefined || keyType === undefined || b64 === undefined) return null;
  if (!KEY_TYPE_RE.test(keyType) || !BASE64_RE.test(b64)) return null;
  const key = Buffer.from(b64, 'base64');
  if (keyTypeOfBlob(key) !== keyType) return null;
  const patterns = hosts.startsWith('|') ? [hosts] : hosts.split(',').filter((p) => p !== '');
  if (patterns.length === 0) return null;
  return { marker, patterns, keyType, key, line };
}

/** Every well-formed entry of a file's text; malformed lines are skipped (as OpenSSH does) and counted. */
export function parseKnownHosts(text: string): { entries: KnownHostEntry[]; skipped: number } {
  const entries: KnownHostEntry[] = [];
  let skipped = 0;
  text.split('\n').forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const entry = parseLine(trimmed, i + 1);
    if (entry === null) skipped += 1;
    else entries.push(entry);
  });
  return { entries, skipped };
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

function matchesHashed(entry: string, name: string): boolean {
  const parts = entry.split('|');
  if (parts.length !== 4 || parts[1] !== '1' || parts[2] === undefined || parts[3] === undefined) return false;
  const salt = Buffer.from(parts[2], 'base64');
  const want = Buffer.from(parts[3], 'base64');
  if (salt.length !== 20 || want.length !== 20) return false;
  const got = createHmac('sha1', salt).update(name).digest();
  return timingSafeEqual(got, want);
}

/** OpenSSH's rule: a line matches when some pattern matches and no negated (`!`) pattern does. */
export function entryMatchesName(entry: KnownHostEntry, name: string): boolean {
  let positive = false;
  for (const pattern of entry.patterns) {
    if (pattern.startsWith('|')) {
      if (matchesHashed(pattern, name)) positive = true;
    } else if (pattern.startsWith('!')) {
      if (globToRegExp(pattern.slice(1)).test(name)) return false;
    } else if (globToRegExp(pattern).test(name)) {
      positive = true;
    }
  }
  return positive;
}

/** A hashed host field for `name` (`|1|salt|hmac`), as `ssh-keygen -H` writes it; `salt` is 20 random bytes. */
export function hashKnownHostName(name: string, salt: Buffer): string {
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}
