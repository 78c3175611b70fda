import { BODY_LENGTH_MAX_BYTES, CHUNK_LINE_MAX_BYTES, TRAILERS_MAX_BYTES } from './relay-limits';

/** How the framer reads a body: by length, chunked, until the peer closes, or not at all. */
export type FramerMode =
  | { readonly kind: 'none' }
  | { readonly kind: 'length'; readonly bytes: number }
  | { readonly kind: 'chunked' }
  | { readonly kind: 'until_close' };

/** Why a body is malformed: the call fails closed (the connection is closed). */
export type FramingProblem = 'bad_chunk_size' | 'chunk_line_too_long' | 'bad_chunk_end' | 'trailers_too_large' | 'bad_trailer';

const HEX_RE = /^[0-9A-Fa-f]{1,12}$/;
/** Chunk extensions: visible ASCII, space, tab (no controls). */
const EXT_RE = /^[\t\x20-\x7e]*$/;
const CR = 0x0d;
const LF = 0x0a;

type ChunkPhase = 'size' | 'data' | 'data_cr' | 'data_lf' | 'trailer';

/**
 * Incremental body framing (RFC 9112 §6, §7.1) that never holds the body: `push` consumes what belongs to
 * the body, hands the decoded payload to `onData` (for the usage scanner), and says how many bytes it took;
 * the rest of the chunk is the next message. Lines (chunk sizes, trailers) are bounded; a bare LF, a bad
 * size or a missing CRLF after a chunk is a `FramingProblem`.
 */
export class BodyFramer {
  private remaining: number;
  private phase: ChunkPhase = 'size';
  private line = '';
  private trailerBytes = 0;
  done: boolean;
  problem: FramingProblem | null = null;

  constructor(readonly mode: FramerMode) {
    this.remaining = mode.kind === 'length' ? mode.bytes : 0;
    this.done = mode.kind === 'none';
  }

  /** Consumes body bytes from `chunk` (from `start`); returns the index just past the last byte taken. */
  push(chunk: Buffer, start: number, onData?: (data: Buffer) => void): number {
    if (this.done || this.problem !== null) return start;
    switch (this.mode.kind) {
      case 'none':
        return start;
      case 'until_close':
        if (start < chunk.length) onData?.(chunk.subarray(start));
        return chunk.length;
      case 'length':
        return this.takeLength(chunk, start, onData);
      case 'chunked':
        return this.takeChunked(chunk, start, onData);
    }
  }

  /** The peer closed: an until-close body ends here; any other unfinished body was truncated. */
  end(): void {
    if (this.mode.kind === 'until_close') this.done = true;
  }

  private takeLength(chunk: Buffer, start: number, onData?: (data: Buffer) => void): number {
    const n = Math.min(this.remaining, chunk.length - start);
    if (n > 0) onData?.(chunk.subarray(start, start + n));
    this.remaining -= n;
    if (this.remaining === 0) this.done = true;
    return start + n;
  }

  private takeChunked(chunk: Buffer, start: number, onData?: (data: Buffer) => void): number {
    let i = start;
    while (i < chunk.length && !this.done && this.problem === null) {
      switch (this.phase) {
        case 'data': {
          const n = Math.min(this.remaining, chunk.length - i);
          onData?.(chunk.subarray(i, i + n));
          this.remaining -= n;
          i += n;
          if (this.remaining === 0) this.phase = 'data_cr';
          break;
        }
        case 'data_cr':
          if (chunk[i] !== CR) this.problem = 'bad_chunk_end';
          this.phase = 'data_lf';
          i += 1;
          break;
        case 'data_lf':
          if (chunk[i] !== LF) this.problem = 'bad_chunk_end';
          this.phase = 'size';
          i += 1;
          break;
        case 'size':
        case 'trailer':
          i = this.takeLine(chunk, i);
          break;
      }
    }
    return i;
  }

  /** Collects one CRLF-terminated line (bounded), then acts on it. */
  private takeLine(chunk: Buffer, i: number): number {
    const lf = chunk.indexOf(LF, i);
    const end = lf === -1 ? chunk.length : lf + 1;
    this.line += chunk.toString('latin1', i, end);
    const max = this.phase === 'size' ? CHUNK_LINE_MAX_BYTES : TRAILERS_MAX_BYTES - this.trailerBytes;
    if (this.line.length > max) {
      this.problem = this.phase === 'size' ? 'chunk_line_too_long' : 'trailers_too_large';
      return end;
    }
    if (lf === -1) return end;
    const line = this.line;
    this.line = '';
    if (!line.endsWith('\r\n') || line.slice(0, -2).includes('\r')) {
      this.problem = this.phase === 'size' ? 'bad_chunk_size' : 'bad_trailer';
      return end;
    }
    if (this.phase === 'size') this.onSizeLine(line.slice(0, -2));
    else this.onTrailerLine(line.slice(0, -2));
    return end;
  }

  private onSizeLine(line: string): void {
    const semi = line.indexOf(';');
    const size = semi === -1 ? line : line.slice(0, semi);
    if (!HEX_RE.test(size) || (semi !== -1 && !EXT_RE.test(line.slice(semi)))) {
      this.problem = 'bad_chunk_size';
      return;
    }
    const n = parseInt(size, 16);
    if (n > BODY_LENGTH_MAX_BYTES) {
      this.problem = 'bad_chunk_size';
      return;
    }
    if (n === 0) this.phase = 'trailer';
    else {
      this.remaining = n;
      this.phase = 'data';
    }
  }

  private onTrailerLine(line: string): void {
    this.trailerBytes += line.length + 2;
    if (line === '') {
      this.done = true;
      return;
    }
    const colon = line.indexOf(':');
    if (
      colon <= 0 ||
      !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(line.slice(0, colon)) ||
      !/^[\t\x20-\x7e\x80-\xff]*$/.test(line.slice(colon + 1))
    )
      this.problem = 'bad_trailer';
  }
}
