/**
 * The engine's answer to `HEAD /containers/{id}/archive?path=`: the `X-Docker-Container-Path-Stat` header, a
 * base64 JSON `{name,size,mode,mtime,linkTarget}` whose `mode` is a Go os.FileMode (type bits above the
 * permission bits). Parsed strictly; anything unexpected is a transport failure, never a guess. Pure.
 */
import type { RemoteFileStat } from '../remote/workspace-port';

/** Cap on the header (base64) we decode: a stat is ~150 bytes; a long link target is the engine's business. */
export const PATH_STAT_HEADER_MAX_BYTES = 8192;

/** Go os.FileMode type bits (io/fs). */
const GO_MODE = {
  dir: 31,
  symlink: 27,
  device: 26,
  namedPipe: 25,
  socket: 24,
  setuid: 23,
  setgid: 22,
  charDevice: 21,
  sticky: 20,
  irregular: 19,
} as const;

/** A stat with the exact engine mtime kept for the "unchanged while read" comparison. */
export interface ArchivePathStat extends RemoteFileStat {
  /** The engine's mtime text (RFC 3339, nanoseconds): compared verbatim between two HEADs. */
  readonly mtimeText: string;
  /** Whole seconds (a tar header's resolution). */
  readonly mtimeSec: number;
}

const MTIME_RE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/;

function bit(mode: number, n: number): boolean {
  return Math.floor(mode / 2 ** n) % 2 === 1;
}

/** The POSIX permission bits (with setuid/setgid/sticky) of a Go FileMode. */
export function goModeToPosix(mode: number): number {
  let m = mode % 0o1000;
  if (bit(mode, GO_MODE.setuid)) m |= 0o4000;
  if (bit(mode, GO_MODE.setgid)) m |= 0o2000;
  if (bit(mode, GO_MODE.sticky)) m |= 0o1000;
  return m;
}

/** The kind a Go FileMode names; every non-regular type bit → `other`. */
export function goModeKind(mode: number): RemoteFileStat['kind'] {
  if (bit(mode, GO_MODE.symlink)) return 'symlink';
  if (bit(mode, GO_MODE.dir)) return 'dir';
  for (const n of [GO_MODE.device, GO_MODE.namedPipe, GO_MODE.socket, GO_MODE.charDevice, GO_MODE.irregular]) {
    if (bit(mode, n)) return 'other';
  }
  return 'file';
}

/** Parses the header value; null when it is absent, oversized or not the documented shape. */
export function parsePathStatHeader(value: string | undefined): ArchivePathStat | null {
  if (value === undefined || value.length === 0 || value.length > PATH_STAT_HEADER_MAX_BYTES) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    return null; // expected: not JSON; the caller reports an engine answer it cannot use
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  const { size, mode, mtime } = o;
  if (typeof o['name'] !== 'string' || (o['linkTarget'] !== undefined && typeof o['linkTarget'] !== 'string')) return null;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return null;
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode >= 2 ** 32) return null;
  const m = typeof mtime === 'string' ? MTIME_RE.exec(mtime) : null;
  if (m === null || typeof mtime !== 'string') return null;
  const sec = Date.parse(`${m[1] ?? ''}${m[3] === 'Z' ? 'Z' : (m[3] ?? '')}`);
  if (!Number.isFinite(sec)) return null;
  const frac = Number(`0.${m[2] ?? '0'}`);
  return {
    kind: goModeKind(mode),
    size,
    mode: goModeToPosix(mode),
    mtimeMs: sec + Math.floor(frac * 1000),
    mtimeText: mtime,
    mtimeSec: Math.floor(sec / 1000),
  };
}

/** Same file as far as the engine can tell: type, size, permission bits and the exact mtime. */
export function sameArchiveStat(a: ArchivePathStat, b: ArchivePathStat): boolean {
  return a.kind === b.kind && a.size === b.size && a.mode === b.mode && a.mtimeText === b.mtimeText;
}
