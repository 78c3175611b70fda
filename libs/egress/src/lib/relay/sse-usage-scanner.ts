import { JsonUsageScanner } from './json-usage-scanner';
import type { UsageTally } from './usage-tally';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
/** Field names longer than this are not `data` and are skipped. */
const FIELD_MAX_CHARS = 16;
/**
 * An event's data is copied aside up to this size and scanned only if it holds a token count key (most stream
 * events do not: the scan then costs one native search). A larger event is scanned as it streams instead.
 */
export const SSE_EVENT_BUFFER_BYTES = 64 * 1024;
/**
 * Every usage field name ends so (`prompt_tokens`, `output_tokens`…). An event without these bytes has no
 * count to read; one with them (a count, or a string that happens to end so) is scanned in full. Only a filter.
 */
const COUNT_KEY_TAIL = Buffer.from('_tokens"');
const DATA_FIELD = Buffer.from('data:');
const BLANK_LINE = Buffer.from('\n\n');

type Phase = 'field' | 'data' | 'skip';

/**
 * Reads usage from a `text/event-stream` body (OpenAI chat/responses and Anthropic streams) without holding
 * it: the `data` lines of each event (joined with LF, the SSE rule) form one JSON document, scanned by a
 * JsonUsageScanner reset at each blank line. Line ends are LF, CRLF or CR. `[DONE]` and other non-object
 * data carry no usage. Memory: one SSE_EVENT_BUFFER_BYTES buffer, allocated at the first event.
 */
export class SseUsageScanner {
  private readonly json: JsonUsageScanner;
  private phase: Phase = 'field';
  private field = '';
  private skipSpace = false;
  private afterCr = false;
  private hasData = false;
  private event: Buffer | null = null;
  private eventLength = 0;
  /** The event outgrew its buffer: its data goes straight to the scanner. */
  private streaming = false;

  constructor(tally: UsageTally) {
    this.json = new JsonUsageScanner(tally);
  }

  push(buf: Buffer, start: number, end: number): void {
    let i = start;
    while (i < end) {
      if (this.phase === 'field' && this.field === '' && !this.hasData && !this.afterCr) {
        i = skipEventsWithoutCounts(buf, i, end);
        if (i >= end) break;
      }
      if (this.afterCr) {
        this.afterCr = false;
        if (buf[i] === LF) {
          i += 1;
          continue;
        }
      }
      i = this.phase === 'field' ? this.inField(buf, i, end) : this.inValue(buf, i, end);
    }
  }

  /** The stream ended: an event without its blank line still counts. */
  finish(): void {
    this.dispatch();
  }

  private inField(buf: Buffer, i: number, end: number): number {
    if (
      this.field === '' &&
      end - i >= DATA_FIELD.length &&
      buf.compare(DATA_FIELD, 0, DATA_FIELD.length, i, i + DATA_FIELD.length) === 0
    ) {
      this.field = 'data'; // the common line, matched without a per-byte loop
      i += DATA_FIELD.length - 1;
    }
    for (; i < end; i++) {
      const c = buf[i] as number;
      if (c === LF || c === CR) {
        if (this.field === '') this.dispatch(); // blank line: the event ends
        this.field = '';
        this.afterCr = c === CR;
        return i + 1;
      }
      if (c === COLON) {
        this.phase = this.field === 'data' ? 'data' : 'skip';
        if (this.phase === 'data') {
          if (this.hasData) this.data(Buffer.of(LF), 0, 1); // data lines of one event join with LF
          this.hasData = true;
        }
        this.skipSpace = true;
        this.field = '';
        return i + 1;
      }
      if (this.field.length >= FIELD_MAX_CHARS) {
        this.phase = 'skip';
        this.field = '';
        return i;
      }
      this.field += String.fromCharCode(c);
    }
    return i;
  }

  private inValue(buf: Buffer, i: number, end: number): number {
    if (this.skipSpace && i < end) {
      this.skipSpace = false;
      if (buf[i] === SPACE) i += 1;
    }
    const lf = buf.indexOf(LF, i);
    const stop = lf === -1 || lf >= end ? end : lf;
    const cr = buf.subarray(i, stop).indexOf(CR); // bounded: never scans past this line
    const eol = cr !== -1 ? i + cr : lf !== -1 && lf < end ? lf : -1;
    const to = eol === -1 ? end : eol;
    if (this.phase === 'data') this.data(buf, i, to);
    if (eol === -1) return end;
    this.phase = 'field';
    this.afterCr = buf[eol] === CR;
    return eol + 1;
  }

  /** Data bytes of the current event: copied aside while they fit, else streamed to the scanner. */
  private data(buf: Buffer, from: number, to: number): void {
    if (this.streaming) return this.json.push(buf, from, to);
    const n = to - from;
    if (this.eventLength + n > SSE_EVENT_BUFFER_BYTES) {
      this.streaming = true;
      if (this.event !== null) this.json.push(this.event, 0, this.eventLength);
      return this.json.push(buf, from, to);
    }
    this.event ??= Buffer.allocUnsafe(SSE_EVENT_BUFFER_BYTES);
    buf.copy(this.event, this.eventLength, from, to);
    this.eventLength += n;
  }

  private dispatch(): void {
    if (this.hasData) {
      const event = this.event;
      if (!this.streaming && event !== null && event.subarray(0, this.eventLength).indexOf(COUNT_KEY_TAIL) !== -1)
        this.json.push(event, 0, this.eventLength);
      this.json.finish();
    }
    this.json.reset();
    this.hasData = false;
    this.streaming = false;
    this.eventLength = 0;
  }
}

/**
 * From an event boundary: the end of the last whole event before the first COUNT_KEY_TAIL in [i, end), when
 * the events up to there use LF line ends (a blank line is then exactly `\n\n`). None of those events holds
 * a count, so they are passed over in a few native searches; `i` when nothing can be skipped.
 */
function skipEventsWithoutCounts(buf: Buffer, i: number, end: number): number {
  const region = buf.subarray(i, end);
  const hit = region.indexOf(COUNT_KEY_TAIL);
  const last = region.subarray(0, hit === -1 ? region.length : hit).lastIndexOf(BLANK_LINE);
  if (last === -1) return i;
  const upto = last + BLANK_LINE.length;
  return region.subarray(0, upto).indexOf(CR) === -1 ? i + upto : i;
}
