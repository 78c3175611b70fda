import { JsonUsageScanner } from './json-usage-scanner';
import type { UsageTally } from './usage-tally';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
/** Field names longer than this are not `data` and are skipped. */
const FIELD_MAX_CHARS = 16;
const NEWLINE = Buffer.from('\n');

type Phase = 'field' | 'data' | 'skip';

/**
 * Reads usage from a `text/event-stream` body (OpenAI chat/responses and Anthropic streams) without
 * holding it: the `data` lines of each event are streamed into one JSON scanner, reset at each blank line,
 * so each event is a document of its own. Line ends are LF, CRLF or CR (the SSE grammar). `[DONE]` and
 * non-JSON data are simply not objects: they carry no usage.
 */
export class SseUsageScanner {
  private readonly json: JsonUsageScanner;
  private phase: Phase = 'field';
  private field = '';
  private skipSpace = false;
  private afterCr = false;
  private hasData = false;

  constructor(tally: UsageTally) {
    this.json = new JsonUsageScanner(tally);
  }

  push(buf: Buffer, start: number, end: number): void {
    let i = start;
    while (i < end) {
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
          if (this.hasData) this.json.push(NEWLINE, 0, 1); // data lines of one event join with LF
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
    if (this.phase === 'data') this.json.push(buf, i, to);
    if (eol === -1) return end;
    this.phase = 'field';
    this.afterCr = buf[eol] === CR;
    return eol + 1;
  }

  private dispatch(): void {
    if (this.hasData) this.json.finish();
    this.json.reset();
    this.hasData = false;
  }
}
