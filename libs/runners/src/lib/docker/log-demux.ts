import { StringDecoder } from 'node:string_decoder';
import type { LogStream } from './docker-port';

/** Size of the Engine's multiplexed-stream frame header (stream byte, 3 padding, u32 BE length). */
const FRAME_HEADER_BYTES = 8;

/**
 * Incremental demuxer of the Engine's multiplexed log stream (non-TTY containers). A frame with an
 * unknown stream byte means the stream is not multiplexed: from then on bytes pass through as stdout.
 */
export class LogDemuxer {
  private buffer: Buffer = Buffer.alloc(0);
  private raw = false;

  constructor(private readonly emit: (stream: LogStream, chunk: Buffer) => void) {}

  push(data: Buffer): void {
    if (this.raw) {
      this.emit('stdout', data);
      return;
    }
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    while (this.buffer.length >= FRAME_HEADER_BYTES) {
      const kind = this.buffer.readUInt8(0);
      if (kind !== 1 && kind !== 2 && kind !== 0) {
        this.raw = true;
        this.emit('stdout', this.buffer);
        this.buffer = Buffer.alloc(0);
        return;
      }
      const length = this.buffer.readUInt32BE(4);
      if (this.buffer.length < FRAME_HEADER_BYTES + length) return;
      const payload = this.buffer.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length);
      this.buffer = this.buffer.subarray(FRAME_HEADER_BYTES + length);
      if (kind !== 0 && payload.length > 0) this.emit(kind === 2 ? 'stderr' : 'stdout', payload);
    }
  }
}

/** Maximum bytes of one output line kept before it is emitted anyway. */
export const OUTPUT_LINE_MAX_BYTES = 16384;

/** Splits a byte stream into lines (without `\n`), bounded; `flush` emits a trailing partial line. */
export class LineSplitter {
  private pending = '';
  private readonly decoder = new StringDecoder('utf8'); // keeps a multi-byte character split across chunks whole

  constructor(private readonly emit: (line: string) => void) {}

  push(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    let at = this.pending.indexOf('\n');
    while (at !== -1) {
      this.emit(this.pending.slice(0, at).replace(/\r$/, ''));
      this.pending = this.pending.slice(at + 1);
      at = this.pending.indexOf('\n');
    }
    if (this.pending.length > OUTPUT_LINE_MAX_BYTES) {
      this.emit(this.pending);
      this.pending = '';
    }
  }

  flush(): void {
    this.pending += this.decoder.end();
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = '';
  }
}
