import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BodyFramer } from './body-framer';
import { HeadCollector } from './head-collector';
import type { EgressMeter, RelayFailure } from './meter';
import { relayAnswer } from './relay-answers';
import { RESPONSE_HEAD_MAX_BYTES, type RelayTimeouts } from './relay-limits';
import { parseResponseHead, type ResponseHead } from './response-head';
import { createUsageReader, type UsageReader } from './usage-reader';

/** How an exchange ended for its connection: may the agent send another request, must the upstream leg go. */
export interface ExchangeEnd {
  /** The call failed: the agent's connection is cut (what it received is truncated). */
  readonly failed: boolean;
  readonly keep: boolean;
  readonly dropUpstream: boolean;
  /** An answer the relay writes because the upstream gave none (502), then the connection closes. */
  readonly answer?: Buffer;
}

export interface ExchangeInit {
  readonly ticket: unknown;
  readonly method: string;
  readonly meter: EgressMeter;
  readonly timeouts: RelayTimeouts;
  readonly upstream: Socket;
  readonly client: Socket;
  readonly onDone: (end: ExchangeEnd) => void;
}

/**
 * One admitted call on the upstream leg: the response head is checked before a byte of it reaches the agent,
 * then the body streams through as it arrives while its framing is followed and its usage read on the side.
 * Settles its ticket exactly once: on the last byte, on a failure, or when the agent goes.
 */
export class UpstreamExchange {
  private readonly startedAt = performance.now();
  private bytesIn = 0;
  private bytesOut = 0;
  private readonly head = new HeadCollector(RESPONSE_HEAD_MAX_BYTES);
  private response: ResponseHead | null = null;
  private framer: BodyFramer | null = null;
  private reader: UsageReader | null = null;
  private settled = false;
  private readonly idle: NodeJS.Timeout;
  private readonly deadline: NodeJS.Timeout;
  private readonly onData = (chunk: Buffer): void => this.fromUpstream(chunk);
  private readonly onClosed = (): void => this.upstreamClosed();

  constructor(private readonly init: ExchangeInit) {
    this.idle = setTimeout(() => this.failUpstream('response_timeout'), init.timeouts.responseIdleMs).unref();
    this.deadline = setTimeout(() => this.failUpstream('response_timeout'), init.timeouts.responseMaxMs).unref();
    init.upstream.on('data', this.onData);
    init.upstream.on('end', this.onClosed);
    init.upstream.on('close', this.onClosed);
  }

  sendRequestBytes(buf: Buffer): void {
    this.bytesIn += buf.length;
    if (!this.init.upstream.write(buf)) this.init.client.pause(); // resumed on the upstream's drain
  }

  /** The whole request went upstream. */
  requestComplete(): void {
    this.idle.refresh();
  }

  /** The agent went (or sent a malformed body): the call ends here, nothing more is relayed. */
  fail(failure: RelayFailure): void {
    this.settle(failure);
  }

  private fromUpstream(chunk: Buffer): void {
    if (this.settled) return;
    this.idle.refresh();
    let i = 0;
    while (i < chunk.length && !this.settled) {
      if (this.response === null) {
        i = this.takeHead(chunk, i);
        continue;
      }
      const framer = this.framer as BodyFramer;
      const reader = this.reader as UsageReader;
      const next = framer.push(chunk, i, (data) => reader.push(data, 0, data.length));
      if (framer.problem !== null) return this.failUpstream('upstream_protocol');
      this.toClient(chunk.subarray(i, next));
      i = next;
      if (framer.done) return this.complete(i < chunk.length);
    }
  }

  private takeHead(chunk: Buffer, i: number): number {
    const step = this.head.push(chunk, i);
    if (step.kind === 'more') return chunk.length;
    if (step.kind === 'too_large' || step.kind === 'bare_lf') {
      this.failUpstream('upstream_protocol');
      return chunk.length;
    }
    const parsed = parseResponseHead(step.text, this.init.method);
    if (typeof parsed === 'string') {
      this.failUpstream('upstream_protocol');
      return chunk.length;
    }
    this.toClient(step.raw);
    if (parsed.status < 200) return step.next; // 100 Continue, 103 Early Hints: the final head follows
    this.response = parsed;
    this.framer = new BodyFramer(parsed.framing);
    this.reader = createUsageReader(parsed.format);
    if (this.framer.done) this.complete(step.next < chunk.length);
    return step.next;
  }

  private toClient(buf: Buffer): void {
    if (buf.length === 0) return;
    this.bytesOut += buf.length;
    if (!this.init.client.write(buf)) this.init.upstream.pause(); // resumed on the agent's drain
  }

  /** The response is complete; `extra`: the upstream sent bytes after it (never relayed: the leg is dropped). */
  private complete(extra: boolean): void {
    const response = this.response as ResponseHead;
    this.settle(null);
    const untilClose = response.framing.kind === 'until_close';
    this.init.onDone({ failed: false, keep: !untilClose, dropUpstream: extra || response.close });
  }

  private upstreamClosed(): void {
    if (this.settled) return;
    if (this.framer?.mode.kind === 'until_close') {
      this.framer.end();
      return this.complete(false);
    }
    this.failUpstream(this.response === null && this.bytesOut === 0 ? 'upstream_unreachable' : 'upstream_closed');
  }

  /** The upstream broke the call: settle, answer 502 if the agent has seen nothing yet, close the connection. */
  private failUpstream(failure: RelayFailure): void {
    if (this.settled) return;
    const answered = this.bytesOut > 0;
    this.settle(failure);
    const message = failure === 'response_timeout' ? 'the LLM did not answer in time' : 'the LLM endpoint could not be reached';
    const answer = answered ? undefined : relayAnswer(502, 'upstream_unavailable', message, { close: true });
    this.init.onDone({ failed: true, keep: false, dropUpstream: true, ...(answer === undefined ? {} : { answer }) });
  }

  private settle(failure: RelayFailure | null): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.idle);
    clearTimeout(this.deadline);
    this.init.upstream.off('data', this.onData);
    this.init.upstream.off('end', this.onClosed);
    this.init.upstream.off('close', this.onClosed);
    const usage = this.reader?.finish() ?? null;
    const outcome = {
      status: this.response?.status ?? null,
      durationMs: performance.now() - this.startedAt,
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut,
      usage,
      failure,
    };
    try {
      this.init.meter.settle(this.init.ticket, outcome);
    } catch {
      // best-effort: the call already happened; a meter that cannot record it must not break the relay
    }
  }
}
