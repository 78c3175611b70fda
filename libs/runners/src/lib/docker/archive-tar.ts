/**
 * A bounded, incremental tar reader for the Docker archive API (docs/receipts.md "Remote receipts"). The engine's
 * tar stream is parsed here, never extracted: every header is checksum-checked, numeric fields are strict octal,
 * and the caller's byte bound is enforced on the running total so a stream can be aborted the moment it exceeds it.
 * Pure: buffers in, events or a refusal out.
 */

/** A tar block (POSIX ustar). */
export const TAR_BLOCK_BYTES = 512;
/** Cap on one pax extended header's body: ours are never written; the engine's carry a few times/xattrs at most. */
export const TAR_PAX_MAX_BYTES = 8192;

/** Why a stream was refused. Callers map these onto their own codes. */
export type TarRefusal =
  | 'tar_checksum'
  | 'tar_size_field'
  | 'tar_malformed'
  | 'tar_truncated'
  | 'tar_too_large'
  | 'tar_rename_header'
  | 'tar_extra_entry'
  | 'tar_name_mismatch'
  | 'tar_symlink'
  | 'tar_hardlink'
  | 'tar_not_regular';

export class TarRefusedError extends Error {
  constructor(readonly refusal: TarRefusal) {
    super(`tar stream refused: ${refusal}`);
    Object.defineProperty(this, 'name', { value: 'TarRefusedError', enumerable: false, configurable: true });
  }
}

export interface TarHeader {
  /** The entry's full name (ustar prefix joined; a pax `path` when the parser allows it). */
  readonly name: string;
  /** '0' regular (also '\0'), '1' hardlink, '2' symlink, '3' char dev, '4' block dev, '5' dir, '6' FIFO… */
  readonly typeflag: string;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
  /** Seconds since the epoch (the header's resolution). */
  readonly mtimeSec: number;
}

export type TarEvent =
  | { readonly kind: 'entry'; readonly header: TarHeader }
  | { readonly kind: 'data'; readonly chunk: Buffer }
  | { readonly kind: 'entry_end' }
  /** Two zero blocks seen: the archive is complete (anything after must be zero padding). */
  | { readonly kind: 'end' };

export interface TarParserOptions {
  /** The running total of stream bytes may not exceed this (→ `tar_too_large`). */
  readonly maxTotalBytes: number;
  /** A pax `path` renames the next entry: refused (`tar_rename_header`) unless a lister allows it. */
  readonly allowPaxPath?: boolean;
}

const REGULAR = new Set(['0', '\0']);

function cString(b: Buffer, start: number, len: number): string {
  const field = b.subarray(start, start + len);
  const nul = field.indexOf(0);
  return field.subarray(0, nul === -1 ? len : nul).toString('utf8');
}

/** A strict octal field: optional leading spaces, octal digits, then only NUL/space. Base-256 is refused. */
function octal(b: Buffer, start: number, len: number, refusal: TarRefusal): number {
  const field = b.subarray(start, start + len);
  if (((field[0] ?? 0) & 0x80) !== 0) throw new TarRefusedError(refusal); // base-256: > 8 GiB or negative, never ours
  const text = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (!/^[0-7]{1,12}$/.test(text)) throw new TarRefusedError(refusal);
  const v = parseInt(text, 8);
  if (!Number.isSafeInteger(v)) throw new TarRefusedError(refusal);
  return v;
}

function checksumOk(b: Buffer): boolean {
  const stored = octal(b, 148, 8, 'tar_checksum');
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < TAR_BLOCK_BYTES; i += 1) {
    const c = i >= 148 && i < 156 ? 0x20 : (b[i] ?? 0);
    unsigned += c;
    signed += c > 127 ? c - 256 : c;
  }
  return stored === unsigned || stored === signed;
}

function isZeroBlock(b: Buffer): boolean {
  for (let i = 0; i < b.length; i += 1) if (b[i] !== 0) return false;
  return true;
}

/** Parses one 512-byte header block (checksum, magic, strict numeric fields). */
export function parseTarHeader(b: Buffer): TarHeader {
  if (b.length !== TAR_BLOCK_BYTES) throw new TarRefusedError('tar_truncated');
  if (!checksumOk(b)) throw new TarRefusedError('tar_checksum');
  const magic = b.subarray(257, 265).toString('latin1');
  const ustar = magic === 'ustar\u000000';
  if (!ustar && magic !== 'ustar  \u0000') throw new TarRefusedError('tar_malformed');
  const base = cString(b, 0, 100);
  const prefix = ustar ? cString(b, 345, 155) : '';
  return {
    name: prefix === '' ? base : `${prefix}/${base}`,
    typeflag: String.fromCharCode(b[156] ?? 0),
    mode: octal(b, 100, 8, 'tar_malformed'),
    uid: octal(b, 108, 8, 'tar_malformed'),
    gid: octal(b, 116, 8, 'tar_malformed'),
    size: octal(b, 124, 12, 'tar_size_field'),
    mtimeSec: octal(b, 136, 12, 'tar_malformed'),
  };
}

/** The records of a pax body (`<len> <key>=<value>\n`…); malformed → `tar_malformed`. */
export function parsePaxRecords(body: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let off = 0;
  while (off < body.length) {
    if (body[off] === 0) break; // NUL padding after the records
    const sp = body.indexOf(0x20, off);
    if (sp === -1 || sp - off > 8) throw new TarRefusedError('tar_malformed');
    const lenText = body.subarray(off, sp).toString('latin1');
    const len = /^[1-9][0-9]*$/.test(lenText) ? parseInt(lenText, 10) : NaN;
    if (!Number.isSafeInteger(len) || off + len > body.length || body[off + len - 1] !== 0x0a) throw new TarRefusedError('tar_malformed');
    const record = body.subarray(sp + 1, off + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq <= 0) throw new TarRefusedError('tar_malformed');
    out.set(record.slice(0, eq), record.slice(eq + 1));
    off += len;
  }
  return out;
}

type State =
  | { s: 'header' }
  | { s: 'data'; left: number; pad: number }
  | { s: 'pax'; left: number; pad: number; body: Buffer[] }
  | { s: 'zero1' }
  | { s: 'trailer' };

/**
 * Incremental parser: `write(chunk)` returns the events the chunk completes, or throws TarRefusedError. `finish()`
 * at end of stream throws `tar_truncated` unless the two end-of-archive blocks were seen.
 */
export class TarParser {
  private state: State = { s: 'header' };
  private pending: Buffer = Buffer.alloc(0);
  private total = 0;
  private paxPath: string | undefined;

  constructor(private readonly opts: TarParserOptions) {}

  write(chunk: Buffer): TarEvent[] {
    this.total += chunk.length;
    if (this.total > this.opts.maxTotalBytes) throw new TarRefusedError('tar_too_large');
    const events: TarEvent[] = [];
    let buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      const st = this.state;
      if (st.s === 'data' || st.s === 'pax') {
        if (st.left > 0) {
          if (buf.length === 0) break;
          const take = buf.subarray(0, Math.min(st.left, buf.length));
          st.left -= take.length;
          buf = buf.subarray(take.length);
          if (st.s === 'data') events.push({ kind: 'data', chunk: take });
          else st.body.push(Buffer.from(take));
          continue;
        }
        if (st.pad > 0) {
          const skip = Math.min(st.pad, buf.length);
          st.pad -= skip;
          buf = buf.subarray(skip);
          if (st.pad > 0) break;
        }
        if (st.s === 'data') events.push({ kind: 'entry_end' });
        else this.endPax(Buffer.concat(st.body));
        this.state = { s: 'header' };
        continue;
      }
      if (buf.length < TAR_BLOCK_BYTES) break;
      const block = buf.subarray(0, TAR_BLOCK_BYTES);
      buf = buf.subarray(TAR_BLOCK_BYTES);
      this.onBlock(block, events);
    }
    this.pending = Buffer.from(buf);
    return events;
  }

  private onBlock(block: Buffer, events: TarEvent[]): void {
    const st = this.state;
    if (st.s === 'trailer') {
      if (!isZeroBlock(block)) throw new TarRefusedError(this.isHeader(block) ? 'tar_extra_entry' : 'tar_malformed');
      return;
    }
    if (isZeroBlock(block)) {
      if (this.paxPath !== undefined) throw new TarRefusedError('tar_malformed'); // a pax header with no entry
      this.state = st.s === 'zero1' ? { s: 'trailer' } : { s: 'zero1' };
      if (st.s === 'zero1') events.push({ kind: 'end' });
      return;
    }
    if (st.s === 'zero1') throw new TarRefusedError('tar_malformed'); // one zero block, then more entries
    const h = parseTarHeader(block);
    const pad = (TAR_BLOCK_BYTES - (h.size % TAR_BLOCK_BYTES)) % TAR_BLOCK_BYTES;
    if (h.typeflag === 'L' || h.typeflag === 'K' || h.typeflag === 'g') throw new TarRefusedError('tar_rename_header');
    if (h.typeflag === 'x') {
      if (h.size > TAR_PAX_MAX_BYTES) throw new TarRefusedError('tar_malformed');
      this.state = { s: 'pax', left: h.size, pad, body: [] };
      return;
    }
    const header = this.paxPath === undefined ? h : { ...h, name: this.paxPath };
    this.paxPath = undefined;
    events.push({ kind: 'entry', header });
    // links, devices, FIFOs and dirs carry no data in ustar, whatever their size field says
    const carriesData = REGULAR.has(h.typeflag) || h.typeflag === '7';
    this.state = carriesData ? { s: 'data', left: h.size, pad } : { s: 'data', left: 0, pad: 0 };
  }

  private isHeader(block: Buffer): boolean {
    try {
      parseTarHeader(block);
      return true;
    } catch {
      return false; // expected: not a header at all, reported as malformed
    }
  }

  private endPax(body: Buffer): void {
    const records = parsePaxRecords(body);
    for (const key of records.keys()) {
      if (key === 'size' || key === 'linkpath') throw new TarRefusedError(key === 'size' ? 'tar_size_field' : 'tar_rename_header');
      if (key === 'path' && this.opts.allowPaxPath !== true) throw new TarRefusedError('tar_rename_header');
    }
    const p = records.get('path');
    if (p !== undefined) this.paxPath = p;
  }

  /** End of stream: the archive must be complete (both end blocks; nothing half-read). */
  finish(): void {
    if (this.state.s !== 'trailer' || this.pending.length > 0) throw new TarRefusedError('tar_truncated');
  }

  /** Stream bytes seen so far. */
  get bytesSeen(): number {
    return this.total;
  }
}

/** The stream bound for one file of at most `maxFileBytes`: header, a pax header, the data, and record padding. */
export function singleFileStreamBound(maxFileBytes: number): number {
  const dataBlocks = Math.ceil(maxFileBytes / TAR_BLOCK_BYTES);
  return TAR_BLOCK_BYTES * (dataBlocks + 1 + 1 + 20) + TAR_PAX_MAX_BYTES;
}

export type SingleFileStep = { readonly kind: 'more' } | { readonly kind: 'refused'; readonly refusal: TarRefusal };

/**
 * Reads a stream that must hold exactly ONE regular file named `expectedName` of at most `maxFileBytes`. `write`
 * reports a refusal as soon as one is certain (the caller aborts the stream); `finish` returns the file.
 */
export class SingleFileTarReader {
  private readonly parser: TarParser;
  private header: TarHeader | undefined;
  private data: Buffer | undefined;
  private got = 0;
  private refused: TarRefusal | undefined;

  constructor(
    private readonly expectedName: string,
    private readonly maxFileBytes: number,
  ) {
    this.parser = new TarParser({ maxTotalBytes: singleFileStreamBound(maxFileBytes) });
  }

  write(chunk: Buffer): SingleFileStep {
    if (this.refused !== undefined) return { kind: 'refused', refusal: this.refused };
    try {
      for (const ev of this.parser.write(chunk)) this.onEvent(ev);
      return { kind: 'more' };
    } catch (e) {
      if (!(e instanceof TarRefusedError)) throw e;
      this.refused = e.refusal;
      return { kind: 'refused', refusal: e.refusal };
    }
  }

  private onEvent(ev: TarEvent): void {
    if (ev.kind === 'entry') {
      if (this.header !== undefined) throw new TarRefusedError('tar_extra_entry');
      const h = ev.header;
      if (h.typeflag === '2') throw new TarRefusedError('tar_symlink');
      if (h.typeflag === '1') throw new TarRefusedError('tar_hardlink');
      if (!REGULAR.has(h.typeflag)) throw new TarRefusedError('tar_not_regular');
      if (h.name !== this.expectedName) throw new TarRefusedError('tar_name_mismatch');
      if (h.size > this.maxFileBytes) throw new TarRefusedError('tar_too_large');
      this.header = h;
      this.data = Buffer.alloc(h.size);
    } else if (ev.kind === 'data') {
      if (this.data === undefined) throw new TarRefusedError('tar_malformed');
      ev.chunk.copy(this.data, this.got);
      this.got += ev.chunk.length;
    }
  }

  /** End of stream: the file, or the refusal. */
  finish():
    | { readonly kind: 'ok'; readonly header: TarHeader; readonly data: Buffer }
    | { readonly kind: 'refused'; readonly refusal: TarRefusal } {
    if (this.refused !== undefined) return { kind: 'refused', refusal: this.refused };
    try {
      this.parser.finish();
    } catch (e) {
      if (!(e instanceof TarRefusedError)) throw e;
      return { kind: 'refused', refusal: e.refusal };
    }
    if (this.header === undefined || this.data === undefined || this.got !== this.header.size)
      return { kind: 'refused', refusal: 'tar_truncated' };
    return { kind: 'ok', header: this.header, data: this.data };
  }
}
