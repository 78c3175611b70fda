/**
 * A misbehaving upstream, as a table: smuggling-shaped or oversized response heads, bad chunk framing, a
 * response that never ends or never starts, a usage that lies. Each call fails closed (502, or the agent's
 * connection cut, and the meter told why); meanwhile another agent's relay in the same process keeps serving.
 */
import type { Socket } from 'node:net';
import type { RelayFailure } from '../src/index';
import { USAGE_TOKENS_MAX } from '../src/index';
import { meteredForwarder, rawExchange, RecordingMeter, SOCAT, startRawUpstream } from './relay-support';

const describeIfSocat = SOCAT === undefined ? describe.skip : describe;

const REQUEST = 'POST /v1/chat HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}';
const TIMEOUTS = { responseIdleMs: 300, responseMaxMs: 800 };

/** Answers the first request head on each connection with `reply` (a function may keep writing). */
function replyWith(reply: string | ((socket: Socket) => void)): (socket: Socket) => void {
  return (socket) => {
    let buf = '';
    socket.on('data', (c: Buffer) => {
      buf += c.toString('latin1');
      if (!buf.includes('\r\n\r\n')) return;
      buf = '';
      if (typeof reply === 'string') socket.write(reply);
      else reply(socket);
    });
  };
}

const json = (body: string, extra = ''): string =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describeIfSocat('hostile upstream responses through the relay', () => {
  test.each<[string, string | ((socket: Socket) => void), RegExp | 'cut', RelayFailure]>([
    [
      'both Content-Length and Transfer-Encoding',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      /^HTTP\/1\.1 502 /,
      'upstream_protocol',
    ],
    ['an oversized head', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`, /^HTTP\/1\.1 502 /, 'upstream_protocol'],
    ['a status line that is not HTTP/1.x', 'HTTP/2 200\r\n\r\n', /^HTTP\/1\.1 502 /, 'upstream_protocol'],
    [
      'a 101 switch to another protocol',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n',
      /^HTTP\/1\.1 502 /,
      'upstream_protocol',
    ],
    ['a bad chunk size mid-body', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nnothex\r\n', 'cut', 'upstream_protocol'],
    ['a body cut short of its Content-Length', (s) => s.end(json('{"a":1}').slice(0, -3)), 'cut', 'upstream_closed'],
    ['no answer at all (closed)', (s) => s.end(), /^HTTP\/1\.1 502 /, 'upstream_unreachable'],
    ['no answer in time (idle)', () => undefined, /^HTTP\/1\.1 502 .*"type":"upstream_unavailable"/s, 'response_timeout'],
    [
      'a response that never ends',
      (s) => {
        s.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n');
        const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write('6\r\ndata: \r\n')), 20);
      },
      'cut',
      'response_timeout',
    ],
  ])('%s fails the call closed', async (_name, reply, answer, failure) => {
    const up = await startRawUpstream(replyWith(reply));
    const meter = new RecordingMeter();
    const f = await meteredForwarder(up.port, meter, TIMEOUTS);
    const okUp = await startRawUpstream(replyWith(json('{}')));
    const other = await meteredForwarder(okUp.port, new RecordingMeter());
    try {
      const pending = rawExchange(f.fwd.socketPath, REQUEST, 2000);
      // the other agent's relay answers while this call misbehaves
      expect((await rawExchange(other.fwd.socketPath, REQUEST)).text).toMatch(/^HTTP\/1\.1 200 /);
      const r = await pending;
      expect(r.closed).toBe(true);
      if (answer === 'cut') expect(r.text).not.toMatch(/^HTTP\/1\.1 502 /);
      else expect(r.text).toMatch(answer);
      const [outcome] = await meter.waitSettled(1);
      expect(outcome?.failure).toBe(failure);
    } finally {
      await f.cleanup();
      await other.cleanup();
      await up.close();
      await okUp.close();
    }
  });

  it('charges a lying usage at the cap (fail-closed), a huge one too', async () => {
    const up = await startRawUpstream(replyWith(json('{"usage":{"prompt_tokens":-5,"completion_tokens":99999999999999999}}')));
    const meter = new RecordingMeter();
    const f = await meteredForwarder(up.port, meter);
    try {
      expect((await rawExchange(f.fwd.socketPath, REQUEST)).text).toMatch(/^HTTP\/1\.1 200 /);
      const [outcome] = await meter.waitSettled(1);
      expect(outcome?.usage).toEqual({
        promptTokens: USAGE_TOKENS_MAX,
        completionTokens: USAGE_TOKENS_MAX,
        totalTokens: 2 * USAGE_TOKENS_MAX,
        trusted: false,
      });
    } finally {
      await f.cleanup();
      await up.close();
    }
  });

  it('never relays bytes the upstream sends after a complete response', async () => {
    const up = await startRawUpstream(replyWith(json('{}') + 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nextra'));
    const meter = new RecordingMeter();
    const f = await meteredForwarder(up.port, meter);
    try {
      const r = await rawExchange(f.fwd.socketPath, REQUEST);
      expect(r.text).toBe(json('{}'));
      expect((await meter.waitSettled(1))[0]?.failure).toBeNull();
    } finally {
      await f.cleanup();
      await up.close();
    }
  });
});
