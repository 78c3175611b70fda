import type { Socket } from 'node:net';
import { BodyFramer } from './body-framer';
import { HeadCollector } from './head-collector';
import type { EgressMeter, RelayFailure } from './meter';
import { relayAnswer, statusOfProblem, type RelayErrorType } from './relay-answers';
import { REQUEST_HEAD_MAX_BYTES, type RelayTimeouts } from './relay-limits';
import { parseRequestHead, serializeRequestHead, type RequestHead } from './request-head';
import { UpstreamExchange, type ExchangeEnd } from './upstream-exchange';

/** What one agent connection is doing: reading a head, a body, waiting for the upstream's answer, or done. */
type Phase = 'head' | 'body' | 'await' | 'closed';

export interface RelayConnectionDeps {
  readonly connectUpstream: () => Socket;
  readonly upstreamHost: string;
  readonly meter: EgressMeter;
  readonly timeouts: RelayTimeouts;
}

/**
 * One agent connection of the relay: request heads are parsed strictly and metered before a byte goes
 * upstream; bodies stream both ways as they arrive (framed, never held); one exchange at a time (a pipelined
 * request waits, its bytes held back by pausing the socket). Any protocol fault closes this connection only.
 */
export class RelayConnection {
  private phase: Phase = 'head';
  private readonly head = new HeadCollector(REQUEST_HEAD_MAX_BYTES);
  private framer: BodyFramer | null = null;
  /** The current request was admitted: its body goes upstream (else it is read and dropped). */
  private forwarding = false;
  private closeAfter = false;
  private upstream: Socket | null = null;
  private exchange: UpstreamExchange | null = null;
  private held: Buffer | null = null;
  private idle: NodeJS.Timeout;
  private clientEnded = false;

  constructor(
    private readonly client: Socket,
    private readonly deps: RelayConnectionDeps,
  ) {
    this.idle = setTimeout(() => this.onIdle(), deps.timeouts.clientIdleMs).unref();
    client.on('data', (chunk: Buffer) => this.onClientData(chunk));
    client.on('end', () => this.onClientEnd());
    client.on('close', () => this.shutdown('client_closed'));
    client.on('error', () => this.shutdown('client_closed')); // the close that follows does the rest
    client.on('drain', () => this.upstream?.resume());
  }

  private onClientData(chunk: Buffer): void {
    if (this.phase === 'closed') return;
    this.idle.refresh();
    this.consume(chunk, 0);
  }

  private consume(chunk: Buffer, from: number): void {
    let i = from;
    while (i < chunk.length && (this.phase === 'head' || this.phase === 'body')) {
      i = this.phase === 'head' ? this.takeHead(chunk, i) : this.takeBody(chunk, i);
    }
    if (i < chunk.length && this.phase === 'await') {
      // a pipelined request: held (bounded: the socket stays paused until the answer is relayed)
      this.held = this.held === null ? Buffer.from(chunk.subarray(i)) : Buffer.concat([this.held, chunk.subarray(i)]);
      this.client.pause();
    }
  }

  private takeHead(chunk: Buffer, i: number): number {
    const step = this.head.push(chunk, i);
    if (step.kind === 'more') return chunk.length;
    if (step.kind === 'too_large' || step.kind === 'bare_lf') {
      this.refuseHead(step.kind === 'too_large' ? 'head_too_large' : 'bad_header', null, null);
      return chunk.length;
    }
    const parsed = parseRequestHead(step.text);
    if (parsed.kind === 'refused') {
      this.refuseHead(parsed.problem, parsed.method ?? null, parsed.path ?? null);
      return chunk.length;
    }
    this.startRequest(parsed.head);
    return step.next;
  }

  private takeBody(chunk: Buffer, i: number): number {
    const framer = this.framer as BodyFramer;
    const next = framer.push(chunk, i);
    if (framer.problem !== null) {
      this.rejectLate(framer.problem);
      return chunk.length;
    }
    if (this.forwarding && next > i) this.exchange?.sendRequestBytes(chunk.subarray(i, next));
    if (framer.done) this.requestEnded();
    return next;
  }

  private startRequest(head: RequestHead): void {
    this.closeAfter = head.close;
    this.framer = new BodyFramer(head.framing);
    this.phase = 'body';
    let admission;
    try {
      admission = this.deps.meter.admit({ method: head.method, path: head.path });
    } catch {
      // expected: a meter that cannot count (its store failed) lets nothing through (fail-closed)
      this.answerAndClose(503, 'meter_unavailable', 'the LLM egress cannot record this call; nothing was sent');
      return;
    }
    if (admission.kind === 'refuse') {
      this.forwarding = false;
      const retry = admission.retryAfterS === undefined ? {} : { retryAfterS: admission.retryAfterS };
      this.client.write(relayAnswer(429, admission.type, admission.message, { ...retry, close: this.closeAfter }));
    } else {
      this.forwarding = true;
      this.exchange = new UpstreamExchange({
        ticket: admission.ticket,
        method: head.method,
        meter: this.deps.meter,
        timeouts: this.deps.timeouts,
        upstream: this.upstreamSocket(),
        client: this.client,
        onDone: (how) => this.exchangeDone(how),
      });
      // corked until the end of this tick: the head and the body bytes already here leave in one write (two
      // writes become two TCP segments at socat, and Nagle holds the second for the upstream's delayed ACK)
      const up = this.upstream as Socket;
      up.cork();
      process.nextTick(() => up.uncork());
      this.exchange.sendRequestBytes(serializeRequestHead(head, this.deps.upstreamHost));
    }
    if (this.framer.done) this.requestEnded();
  }

  /** The upstream leg, connected on first use and kept across requests (keep-alive). */
  private upstreamSocket(): Socket {
    if (this.upstream !== null && !this.upstream.destroyed) return this.upstream;
    const up = this.deps.connectUpstream();
    up.on('drain', () => {
      if (this.phase === 'body') this.client.resume();
    });
    up.on('error', () => undefined); // the exchange (or the close below) reports it
    up.on('close', () => {
      if (this.upstream === up) this.upstream = null;
    });
    this.upstream = up;
    return up;
  }

  private requestEnded(): void {
    this.framer = null;
    if (this.forwarding && this.exchange !== null) {
      this.phase = 'await';
      this.exchange.requestComplete();
      return;
    }
    this.forwarding = false;
    this.nextRequest();
  }

  /** The exchange ended: a failure cuts the connection, a complete answer may be followed by another request. */
  private exchangeDone(end: ExchangeEnd): void {
    this.exchange = null;
    if (end.dropUpstream) this.releaseUpstream();
    if (end.answer !== undefined) return this.endClient(end.answer);
    if (end.failed) return this.close();
    // answered before the request was fully read: the rest of its body is out of step with the upstream
    if (!end.keep || this.phase !== 'await') return this.endClient();
    this.forwarding = false;
    this.nextRequest();
  }

  private nextRequest(): void {
    if (this.closeAfter || this.clientEnded) return this.endClient();
    this.phase = 'head';
    const held = this.held;
    this.held = null;
    this.client.resume();
    if (held !== null) this.consume(held, 0);
  }

  private refuseHead(problem: Parameters<typeof statusOfProblem>[0], method: string | null, path: string | null): void {
    const status = statusOfProblem(problem);
    this.record({ method, path, reason: problem, status });
    this.answerAndClose(status, 'invalid_request', `the LLM egress refused this request (${problem})`);
  }

  /** A malformed body: the call (forwarded or not) fails closed and the connection goes. */
  private rejectLate(problem: string): void {
    this.record({ method: null, path: null, reason: problem, status: 400 });
    if (this.exchange !== null) this.exchange.fail('client_protocol');
    this.close();
  }

  private record(rejection: Parameters<EgressMeter['reject']>[0]): void {
    try {
      this.deps.meter.reject(rejection);
    } catch {
      // best-effort: the refusal stands whether or not it could be recorded
    }
  }

  private answerAndClose(status: number, type: RelayErrorType, message: string): void {
    this.endClient(relayAnswer(status, type, message, { close: true }));
  }

  private onClientEnd(): void {
    this.clientEnded = true;
    if (this.phase === 'head' && this.head.size === 0) this.endClient();
    else if (this.phase !== 'await') this.close(); // ended mid-request: nothing complete to answer
  }

  private onIdle(): void {
    if (this.exchange !== null) return; // the exchange runs its own response timers
    this.close();
  }

  /** Ends the agent's connection after what was written (and `last`) is flushed. */
  private endClient(last?: Buffer): void {
    this.phase = 'closed';
    clearTimeout(this.idle);
    this.exchange?.fail('client_closed');
    this.exchange = null;
    if (last === undefined) this.client.end();
    else this.client.end(last);
    this.client.destroySoon();
    this.releaseUpstream();
  }

  private close(): void {
    this.shutdown('client_closed');
    this.client.destroy();
  }

  private shutdown(failure: RelayFailure): void {
    if (this.phase === 'closed' && this.exchange === null && this.upstream === null) return;
    this.phase = 'closed';
    clearTimeout(this.idle);
    this.exchange?.fail(failure);
    this.exchange = null;
    this.releaseUpstream();
  }

  private releaseUpstream(): void {
    this.upstream?.destroy();
    this.upstream = null;
  }
}
