/**
 * Builds the one-entry ustar archives the Docker archive transport PUTs (a regular file or a directory), in
 * memory: fixed owner and mode in the header, no pax, no links. Pure.
 */
import { TAR_BLOCK_BYTES } from './archive-tar';

export interface TarEntrySpec {
  /** One path component (no `/`), at most 100 bytes. */
  readonly name: string;
  readonly kind: 'file' | 'dir';
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly mtimeSec: number;
  /** The file's bytes (ignored for a directory). */
  readonly data?: Buffer;
}

function writeOctal(b: Buffer, value: number, start: number, len: number): void {
  const text = value.toString(8).padStart(len - 1, '0');
  if (text.length > len - 1) throw new RangeError(`tar field too small for ${value}`);
  b.write(text, start, len - 1, 'latin1');
  b[start + len - 1] = 0;
}

/** A complete archive (header, data, padding, two end blocks) holding exactly `spec`. */
export function buildSingleEntryTar(spec: TarEntrySpec): Buffer {
  const nameBytes = Buffer.from(spec.kind === 'dir' ? `${spec.name}/` : spec.name, 'utf8');
  if (spec.name.length === 0 || spec.name.includes('/') || spec.name.includes('\0') || nameBytes.length > 100) {
    throw new RangeError('tar entry name must be one component of at most 100 bytes');
  }
  const data = spec.kind === 'file' ? (spec.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
  const h = Buffer.alloc(TAR_BLOCK_BYTES);
  nameBytes.copy(h, 0);
  writeOctal(h, spec.mode & 0o7777, 100, 8);
  writeOctal(h, spec.uid, 108, 8);
  writeOctal(h, spec.gid, 116, 8);
  writeOctal(h, data.length, 124, 12);
  writeOctal(h, spec.mtimeSec, 136, 12);
  h[156] = (spec.kind === 'dir' ? '5' : '0').charCodeAt(0);
  h.write('ustar\u000000', 257, 8, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const c of h) sum += c;
  writeOctal(h, sum, 148, 7);
  h[155] = 0x20;
  const pad = (TAR_BLOCK_BYTES - (data.length % TAR_BLOCK_BYTES)) % TAR_BLOCK_BYTES;
  return Buffer.concat([h, data, Buffer.alloc(pad), Buffer.alloc(2 * TAR_BLOCK_BYTES)]);
}
