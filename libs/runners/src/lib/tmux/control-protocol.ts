/**
 * Pure, incremental parser of tmux control mode (`tmux -C`) output. Lines are split on LF as bytes:
 * `%output` data is octal-escaped by tmux only below 0x20 and for `\`, so higher bytes arrive raw.
 */

/** A command's reply: `%begin … %end` (ok) or `%begin … %error`. */
export interface ControlBlock {
  readonly number: number;
  /** tmux sets bit 0 for commands sent by this client; command-line commands have 0. */
  readonly flags: number;
  readonly ok: boolean;
  readonly lines: readonly string[];
}

export interface ControlEvents {
  block(block: ControlBlock): void;
  output(paneId: string, data: Buffer): void;
  notification(name: string, args: string): void;
  exit(reason: string): void;
}

/** Lines longer than this are dropped whole (a misbehaving pane cannot grow the parser unbounded). */
export const CONTROL_LINE_MAX_BYTES = 16 * 1024 * 1024;

const BEGIN_RE = /^%begin (\d+) (\d+) (\d+)$/;
const END_RE = /^%(end|error) (\d+) (\d+) (\d+)$/;
const OUTPUT_PREFIX = Buffer.from('%output ');

/** Decodes tmux's `\ooo` escapes into bytes; other bytes are copied unchanged. */
export function decodeOctalEscapes(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length);
  let o = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i] as number;
    if (b === 0x5c && isOctalTriple(data, i + 1)) {
      out[o++] = ((data[i + 1] as number) - 48) * 64 + ((data[i + 2] as number) - 48) * 8 + ((data[i + 3] as number) - 48);
      i += 3;
    } else {
      out[o++] = b;
    }
  }
  return out.subarray(0, o);
}

function isOctalTriple(data: Buffer, at: number): boolean {
  for (let k = 0; k < 3; k++) {
    const c = data[at + k];
    if (c === undefined || c < 48 || c > 55) return false;
  }
  return true;
}

interface OpenBlock {
  readonly time: string;
  readonly number: number;
  readonly flags: number;
  readonly lines: string[];
}

export class ControlParser {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private block: OpenBlock | undefined;

  constructor(private readonly events: ControlEvents) {}

  /** Feed raw stdout bytes of the control client. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.append(chunk.subarray(start, nl));
      const line = Buffer.concat(this.pending, this.pendingBytes);
      const oversize = this.pendingBytes > CONTROL_LINE_MAX_BYTES;
      this.pending = [];
      this.pendingBytes = 0;
      if (!oversize) this.line(line);
      start = nl + 1;
    }
    this.append(chunk.subarray(start));
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.pendingBytes <= CONTROL_LINE_MAX_BYTES) this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private line(raw: Buffer): void {
    if (this.block !== undefined) {
      this.blockLine(this.block, raw.toString('utf8'));
      return;
    }
    if (raw.subarray(0, OUTPUT_PREFIX.length).equals(OUTPUT_PREFIX)) {
      this.outputLine(raw.subarray(OUTPUT_PREFIX.length));
      return;
    }
    const text = raw.toString('utf8');
    const begin = BEGIN_RE.exec(text);
    if (begin !== null) {
      this.block = { time: begin[1] as string, number: Number(begin[2]), flags: Number(begin[3]), lines: [] };
      return;
    }
    this.notificationLine(text);
  }

  private blockLine(block: OpenBlock, text: string): void {
    const end = END_RE.exec(text);
    // Output inside a block is not escaped: only the exact matching guard closes it.
    if (end !== null && end[2] === block.time && Number(end[3]) === block.number) {
      this.block = undefined;
      this.events.block({ number: block.number, flags: block.flags, ok: end[1] === 'end', lines: block.lines });
      return;
    }
    block.lines.push(text);
  }

  private outputLine(rest: Buffer): void {
    const space = rest.indexOf(0x20);
    if (space === -1) return;
    const paneId = rest.subarray(0, space).toString('latin1');
    if (!/^%\d+$/.test(paneId)) return;
    this.events.output(paneId, decodeOctalEscapes(rest.subarray(space + 1)));
  }

  private notificationLine(text: string): void {
    if (!text.startsWith('%')) return;
    const space = text.indexOf(' ');
    const name = space === -1 ? text.slice(1) : text.slice(1, space);
    const args = space === -1 ? '' : text.slice(space + 1);
    if (name === 'exit') {
      this.events.exit(args);
      return;
    }
    this.events.notification(name, args);
  }
}
