/**
 * The byte layer of the receipt watcher's stdout (docs/receipts.md "Remote receipts: the push"): short lines, and
 * receipt frames — a header line `f <turn> <reply.md|done.json> <length>` followed by exactly `length` raw bytes.
 * Everything here is hostile: a header must match exactly (a generated turn id, one of the two file names, a decimal
 * length without sign or leading zero) and its length must be within that file's receipt bound before a byte of the
 * frame is kept; a frame must be complete within PUSH_FRAME_TIMEOUT_MS. Any breach ends the reader with a reason (the
 * caller drops the watcher); nothing is ever buffered beyond one line bound or one file's receipt bound.
 */
import { DONE_FILE, DONE_MAX_BYTES, REPLY_MAX_BYTES, type REPLY_FILE } from '@genswarms/receipts';

/** Longest line accepted from a watcher; a longer one ends it (a real line is at most 88 bytes). */
export const PUSH_LINE_MAX_BYTES = 128;
/** Time a started frame has to arrive whole; a slower one ends the watcher (the archive read takes over). */
export const PUSH_FRAME_TIMEOUT_MS = 2000;

const FRAME_HEADER_RE = /^f ([a-z0-9_-]{1,64}) (done\.json|reply\.md) (0|[1-9][0-9]{0,8})$/;

export type ReceiptFileName = typeof DONE_FILE | typeof REPLY_FILE;

/** What the reader hands on: a line (no newline), a whole frame, or the reason it stopped. */
export interface FrameSink {
  line(line: string): void;
  /** Whether a frame of `name` for `turn` may start at all (a turn the host asked bytes for, no duplicate). */
  accepts(turn: string, name: ReceiptFileName): boolean;
  frame(turn: string, name: ReceiptFileName, data: Buffer): void;
  fail(detail: string): void;
}

function maxBytesOf(name: ReceiptFileName): number {
  return name === DONE_FILE ? DONE_MAX_BYTES : REPLY_MAX_BYTES;
}

interface OpenFrame {
  readonly turn: string;
  readonly name: ReceiptFileName;
  readonly data: Buffer;
  got: number;
  readonly timer: NodeJS.Timeout;
}

export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);
  private open: OpenFrame | undefined;
  private failed = false;

  constructor(private readonly sink: FrameSink) {}

  /** Bytes of the stream, in any chunking. */
  push(chunk: Buffer): void {
    let rest = chunk;
    while (!this.failed && rest.length > 0) {
      rest = this.open === undefined ? this.takeLines(rest) : this.takeFrameBytes(this.open, rest);
    }
  }

  /** Ends the reader (stream end, close): a frame in progress is discarded, its timer cleared. */
  stop(): void {
    this.failed = true;
    if (this.open !== undefined) clearTimeout(this.open.timer);
    this.open = undefined;
    this.pending = Buffer.alloc(0);
  }

  private takeLines(chunk: Buffer): Buffer {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      const at = this.pending.indexOf(0x0a);
      if (at === -1) break;
      const line = this.pending.subarray(0, at);
      const after = this.pending.subarray(at + 1);
      this.pending = Buffer.alloc(0);
      if (line.length > PUSH_LINE_MAX_BYTES) return this.fail('a line over the length bound');
      const text = line.toString('latin1');
      if (text.startsWith('f ')) {
        this.startFrame(text);
        return this.failed ? Buffer.alloc(0) : after; // the frame's bytes follow the header
      }
      this.sink.line(text);
      if (this.failed) return Buffer.alloc(0);
      this.pending = after;
    }
    if (this.pending.length > PUSH_LINE_MAX_BYTES) return this.fail('a line over the length bound');
    return Buffer.alloc(0);
  }

  private startFrame(header: string): void {
    const m = FRAME_HEADER_RE.exec(header);
    if (m === null) return void this.fail('a malformed frame header');
    const turn = m[1] ?? '';
    const name = m[2] as ReceiptFileName;
    const length = Number(m[3]);
    if (!Number.isSafeInteger(length) || length > maxBytesOf(name)) return void this.fail('a frame over the receipt bound');
    if (!this.sink.accepts(turn, name)) return void this.fail('a frame the host did not ask for');
    const timer = setTimeout(() => this.fail('a frame that did not arrive in time'), PUSH_FRAME_TIMEOUT_MS);
    timer.unref();
    this.open = { turn, name, data: Buffer.alloc(length), got: 0, timer };
    if (length === 0) this.finishFrame(this.open);
  }

  private takeFrameBytes(f: OpenFrame, chunk: Buffer): Buffer {
    const n = Math.min(chunk.length, f.data.length - f.got);
    chunk.copy(f.data, f.got, 0, n);
    f.got += n;
    if (f.got === f.data.length) this.finishFrame(f);
    return chunk.subarray(n);
  }

  private finishFrame(f: OpenFrame): void {
    clearTimeout(f.timer);
    this.open = undefined;
    this.sink.frame(f.turn, f.name, f.data);
  }

  private fail(detail: string): Buffer {
    if (!this.failed) {
      this.stop();
      this.sink.fail(detail);
    }
    return Buffer.alloc(0);
  }
}
