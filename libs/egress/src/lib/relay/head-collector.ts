const TERMINATOR = Buffer.from('\r\n\r\n');

export type HeadStep =
  | { readonly kind: 'more' }
  | { readonly kind: 'too_large' }
  /** A line ended with a bare LF (a smuggling shape): refused at once, not waited on. */
  | { readonly kind: 'bare_lf' }
  /** `text`: the head without its blank line (latin1); `raw`: its bytes with it; `next`: where the body starts in the chunk. */
  | { readonly kind: 'head'; readonly text: string; readonly raw: Buffer; readonly next: number };

/**
 * Gathers one message head across chunks up to `maxBytes` (the blank line included). Copies at most
 * `maxBytes` of any chunk: body bytes after the head are left in the chunk for the framer.
 */
export class HeadCollector {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {}

  /** Bytes gathered so far (nothing: at a message boundary). */
  get size(): number {
    return this.buf.length;
  }

  push(chunk: Buffer, start: number): HeadStep {
    const before = this.buf.length;
    const take = chunk.subarray(start, Math.min(chunk.length, start + this.maxBytes + TERMINATOR.length - before));
    const all = before === 0 ? take : Buffer.concat([this.buf, take]);
    const at = all.indexOf(TERMINATOR, Math.max(0, before - (TERMINATOR.length - 1)));
    if (hasBareLf(all, before, at === -1 ? all.length : at)) return { kind: 'bare_lf' };
    if (at === -1 || at + TERMINATOR.length > this.maxBytes) {
      if (all.length >= this.maxBytes) return { kind: 'too_large' };
      this.buf = Buffer.from(all); // own copy: the chunk may be reused by its producer
      return { kind: 'more' };
    }
    this.buf = Buffer.alloc(0);
    const end = at + TERMINATOR.length;
    return { kind: 'head', text: all.toString('latin1', 0, at), raw: all.subarray(0, end), next: start + end - before };
  }
}

/** An LF in [from, to) not preceded by CR (the byte before `from` counts: it was checked with the previous chunk). */
function hasBareLf(buf: Buffer, from: number, to: number): boolean {
  for (let i = buf.indexOf(0x0a, from); i !== -1 && i < to; i = buf.indexOf(0x0a, i + 1)) if (i === 0 || buf[i - 1] !== 0x0d) return true;
  return false;
}
