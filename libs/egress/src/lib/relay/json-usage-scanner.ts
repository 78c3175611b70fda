import { isUsageField, type UsageField, type UsageTally } from './usage-tally';

/** Deepest nesting followed; a deeper document stops being scanned (usage sits at depth 2 or 3). */
const MAX_DEPTH = 64;
/** Keys are captured only up to this length (usage keys are short). */
const KEY_MAX_CHARS = 64;
/** Number/literal text kept for a usage field. */
const TOKEN_MAX_CHARS = 32;
const OBJ = 1;
const ARR = 2;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

type Mode = 'value' | 'string' | 'token' | 'dead';

/**
 * A bounded, incremental JSON scanner that finds the usage object of one LLM response document without
 * holding it: `usage.*` at the top level (OpenAI chat and responses, Anthropic messages and `message_delta`),
 * `response.usage.*` (OpenAI responses `response.completed`) and `message.usage.*` (Anthropic
 * `message_start`). Only those exact paths count: a `"usage"` inside a completion is a string (escaped) or
 * deeper, and never matches. Memory is O(1): a depth stack of MAX_DEPTH bytes and three keys.
 * Strings are skipped with `indexOf` (the bulk of a completion), so the per-byte loop runs on structure only.
 */
export class JsonUsageScanner {
  private mode: Mode = 'value';
  private depth = 0;
  private readonly types = new Uint8Array(MAX_DEPTH + 1);
  private readonly keys: Array<string | null> = [null, null, null, null];
  private expectKey = false;
  private stringIsKey = false;
  private key: string | null = '';
  /** An odd run of backslashes ended the previous chunk inside a string: its next byte is escaped. */
  private escaped = false;
  private token = '';
  private tokenField: UsageField | null = null;

  constructor(private readonly tally: UsageTally) {}

  /** Starts a new document (the next SSE event). */
  reset(): void {
    this.mode = 'value';
    this.depth = 0;
    this.expectKey = false;
    this.escaped = false;
    this.token = '';
    this.tokenField = null;
    this.keys.fill(null);
  }

  /** The document ended: a number at the very end is complete. */
  finish(): void {
    if (this.mode === 'token') this.endToken();
  }

  push(buf: Buffer, start: number, end: number): void {
    let i = start;
    while (i < end && this.mode !== 'dead') {
      if (this.mode === 'string') i = this.inString(buf, i, end);
      else if (this.mode === 'token') i = this.inToken(buf, i, end);
      else i = this.structure(buf, i, end);
    }
  }

  /** The usage field a value at the current position belongs to, or null. */
  private fieldHere(): UsageField | null {
    if (this.types[this.depth] !== OBJ) return null;
    const key = this.keys[this.depth];
    if (key === null || key === undefined || !isUsageField(key)) return null;
    if (this.depth === 2 && this.keys[1] === 'usage') return key;
    if (this.depth === 3 && this.keys[2] === 'usage' && (this.keys[1] === 'response' || this.keys[1] === 'message')) return key;
    return null;
  }

  private structure(buf: Buffer, i: number, end: number): number {
    for (; i < end; i++) {
      const c = buf[i] as number;
      switch (c) {
        case 0x20:
        case 0x09:
        case 0x0a:
        case 0x0d:
          continue;
        case 0x7b: // {
        case 0x5b: // [
          if (this.depth === 0 && c !== 0x7b) return this.die(end);
          this.valueStarts(null);
          if (this.depth >= MAX_DEPTH) return this.die(end);
          this.depth += 1;
          this.types[this.depth] = c === 0x7b ? OBJ : ARR;
          if (this.depth < this.keys.length) this.keys[this.depth] = null;
          this.expectKey = c === 0x7b;
          continue;
        case 0x7d: // }
        case 0x5d: // ]
          if (this.depth === 0) return this.die(end);
          this.depth -= 1;
          this.expectKey = false;
          continue;
        case 0x2c: // ,
          this.expectKey = this.types[this.depth] === OBJ;
          continue;
        case 0x3a: // :
          this.expectKey = false;
          continue;
        case QUOTE:
          if (this.depth === 0) return this.die(end);
          this.stringIsKey = this.expectKey && this.types[this.depth] === OBJ;
          if (!this.stringIsKey) this.valueStarts(null);
          this.key = this.stringIsKey && this.depth < this.keys.length ? '' : null;
          this.escaped = false;
          this.mode = 'string';
          return i + 1;
        default:
          if (this.depth === 0 || !isTokenStart(c)) return this.die(end);
          this.tokenField = this.fieldHere();
          this.token = '';
          this.mode = 'token';
          return i;
      }
    }
    return i;
  }

  /** A string, object or array value starts: one that is a usage field is not a count. */
  private valueStarts(text: string | null): void {
    const field = this.fieldHere();
    if (field !== null) this.tally.observe(field, text);
  }

  private inString(buf: Buffer, i: number, end: number): number {
    for (;;) {
      const q = buf.indexOf(QUOTE, i);
      if (q === -1 || q >= end) {
        this.captureKey(buf, i, end);
        this.escaped = trailingEscape(buf, i, end, this.escaped);
        return end;
      }
      if (trailingEscape(buf, i, q, this.escaped)) {
        this.captureKey(buf, i, q + 1);
        this.escaped = false;
        i = q + 1;
        continue;
      }
      this.captureKey(buf, i, q);
      if (this.stringIsKey && this.depth < this.keys.length) this.keys[this.depth] = this.key;
      this.mode = 'value';
      return q + 1;
    }
  }

  private captureKey(buf: Buffer, from: number, to: number): void {
    if (this.key === null) return;
    if (to - from + this.key.length > KEY_MAX_CHARS || hasByte(buf, from, to, BACKSLASH)) {
      this.key = null; // a long or escaped key is never a usage key
      return;
    }
    this.key += buf.toString('latin1', from, to);
  }

  private inToken(buf: Buffer, i: number, end: number): number {
    for (; i < end; i++) {
      const c = buf[i] as number;
      const isTokenChar =
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2e || c === 0x2b || c === 0x2d;
      if (!isTokenChar) {
        this.endToken();
        return i;
      }
      if (this.tokenField !== null && this.token.length <= TOKEN_MAX_CHARS) this.token += String.fromCharCode(c);
    }
    return i;
  }

  private endToken(): void {
    this.mode = 'value';
    const field = this.tokenField;
    this.tokenField = null;
    if (field === null || this.token === 'null') return; // null: the field is absent (Anthropic sends some as null)
    this.tally.observe(field, this.token.length > TOKEN_MAX_CHARS ? null : this.token);
  }

  private die(end: number): number {
    this.mode = 'dead'; // not a JSON object document (e.g. `[DONE]`): no usage in it
    return end;
  }
}

/** `-`, a digit, or the first letter of true/false/null. */
function isTokenStart(c: number): boolean {
  return c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
}

/** Whether [from, to) holds `byte` (short ranges: keys only). */
function hasByte(buf: Buffer, from: number, to: number, byte: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] === byte) return true;
  return false;
}

/** Whether the byte after [from, to) is escaped: the backslash run ending at `to`, plus the carried parity if the run spans the whole range. */
function trailingEscape(buf: Buffer, from: number, to: number, carried: boolean): boolean {
  let run = 0;
  while (to - run - 1 >= from && buf[to - run - 1] === BACKSLASH) run += 1;
  const odd = run % 2 === 1;
  return run === to - from ? odd !== carried : odd;
}
