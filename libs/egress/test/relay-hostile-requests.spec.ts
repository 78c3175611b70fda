/**
 * Hostile agent input to the relay, as a table: oversized heads, other HTTP versions, request smuggling
 * shapes (Content-Length with Transfer-Encoding, repeated or signed lengths, bare LF, obs-fold), bad chunk
 * framing, tunnels. Each fails closed — answered 4xx/5xx and closed, or cut — nothing reaches the upstream
 * unless the head was sound, and the relay keeps serving the next connection.
 */
import type { Socket } from 'node:net';
import { meteredForwarder, rawExchange, RecordingMeter, SOCAT, startRawUpstream } from './relay-support';

const describeIfSocat = SOCAT === undefined ? describe.skip : describe;

const OK_RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';

/** Answers every complete request head with OK_RESPONSE (keep-alive). */
function answerHeads(socket: Socket, seen: string[]): void {
  let buf = '';
  socket.on('data', (c: Buffer) => {
    buf += c.toString('latin1');
    seen.push(c.toString('latin1'));
    while (buf.includes('\r\n\r\n')) {
      buf = buf.slice(buf.indexOf('\r\n\r\n') + 4);
      socket.write(OK_RESPONSE);
    }
  });
}

const GOOD = 'POST /v1/chat HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}';
const GOOD_LAST = 'POST /v1/chat HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}';

describeIfSocat('hostile requests to the relay', () => {
  test.each<[string, string, RegExp, string]>([
    ['an oversized head', `GET /v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40 * 1024)}\r\n\r\n`, /^HTTP\/1\.1 431 /, 'head_too_large'],
    ['HTTP/1.0', 'GET /v1 HTTP/1.0\r\nHost: x\r\n\r\n', /^HTTP\/1\.1 505 /, 'not_http_1_1'],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', /^HTTP\/1\.1 505 /, 'not_http_1_1'],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      /^HTTP\/1\.1 400 /,
      'content_length_and_transfer_encoding',
    ],
    [
      'a Transfer-Encoding list',
      'POST /v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
      /^HTTP\/1\.1 400 /,
      'bad_transfer_encoding',
    ],
    [
      'a repeated Transfer-Encoding',
      'POST /v1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      /^HTTP\/1\.1 400 /,
      'bad_transfer_encoding',
    ],
    [
      'a repeated Content-Length (same value)',
      'POST /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}',
      /^HTTP\/1\.1 400 /,
      'bad_content_length',
    ],
    ['a signed Content-Length', 'POST /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: +2\r\n\r\n{}', /^HTTP\/1\.1 400 /, 'bad_content_length'],
    [
      'a Content-Length over 1 GiB',
      'POST /v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 9999999999\r\n\r\n',
      /^HTTP\/1\.1 400 /,
      'bad_content_length',
    ],
    ['bare LF line ends', 'POST /v1 HTTP/1.1\nHost: x\nContent-Length: 2\n\n{}', /^HTTP\/1\.1 400 /, 'bad_header'],
    ['a bare CR inside a header', 'GET /v1 HTTP/1.1\r\nHost: x\rX-A: b\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_header'],
    ['an obs-fold continuation line', 'GET /v1 HTTP/1.1\r\nHost: x\r\n folded: y\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_header'],
    ['NUL in a header value', 'GET /v1 HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_header'],
    ['a space before the colon', 'GET /v1 HTTP/1.1\r\nHost : x\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_header'],
    ['no Host', 'GET /v1 HTTP/1.1\r\nX-A: b\r\n\r\n', /^HTTP\/1\.1 400 /, 'missing_host'],
    ['two Hosts', 'GET /v1 HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', /^HTTP\/1\.1 400 /, 'duplicate_host'],
    ['an absolute-form target', 'GET http://evil.example/v1 HTTP/1.1\r\nHost: x\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_target'],
    ['CONNECT (a tunnel)', 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example\r\n\r\n', /^HTTP\/1\.1 405 /, 'method_not_allowed'],
    [
      'a WebSocket upgrade',
      'GET /v1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      /^HTTP\/1\.1 400 /,
      'upgrade_refused',
    ],
    ['a leading empty line', '\r\nGET /v1 HTTP/1.1\r\nHost: x\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_request_line'],
    ['too many headers', `GET /v1 HTTP/1.1\r\nHost: x\r\n${'X-A: b\r\n'.repeat(120)}\r\n`, /^HTTP\/1\.1 400 /, 'too_many_headers'],
    ['not HTTP at all (a TLS hello)', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n', /^HTTP\/1\.1 400 /, 'bad_request_line'],
  ])('%s is refused before anything reaches the upstream', async (_name, bytes, answer, reason) => {
    const up = await startRawUpstream(answerHeads);
    const meter = new RecordingMeter();
    const f = await meteredForwarder(up.port, meter);
    try {
      const r = await rawExchange(f.fwd.socketPath, Buffer.from(bytes, 'latin1'));
      expect(r.text).toMatch(answer);
      expect(r.text).toContain('"type":"invalid_request"');
      expect(r.closed).toBe(true);
      expect(up.seen).toEqual([]);
      expect(meter.admitted).toEqual([]);
      expect(meter.rejected.map((x) => x.reason)).toEqual([reason]);
      expect((await rawExchange(f.fwd.socketPath, GOOD_LAST)).text).toMatch(/^HTTP\/1\.1 200 /); // still serving
    } finally {
      await f.cleanup();
      await up.close();
    }
  });

  test.each<[string, string, string]>([
    ['a chunk size that is not hex', '5\r\nhello\r\nzz\r\n', 'bad_chunk_size'],
    ['a chunk size beyond 1 GiB', 'FFFFFFFFFFFF\r\n', 'bad_chunk_size'],
    ['a chunk size line with a bare LF', '5\nhello\r\n0\r\n\r\n', 'bad_chunk_size'],
    ['chunk data without its CRLF', '5\r\nhelloXX0\r\n\r\n', 'bad_chunk_end'],
    ['a chunk-size line longer than 4 KiB', `5;${'e'.repeat(5000)}\r\n`, 'chunk_line_too_long'],
  ])('%s in an admitted body cuts the call (failed, never answered 2xx)', async (_name, body, reason) => {
    const up = await startRawUpstream(() => undefined); // never answers: the cut must come from the relay
    const meter = new RecordingMeter();
    const f = await meteredForwarder(up.port, meter);
    try {
      const head = 'POST /v1/chat HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
      const r = await rawExchange(f.fwd.socketPath, head + body);
      expect(r.closed).toBe(true);
      expect(r.text).not.toMatch(/^HTTP\/1\.1 2/);
      expect(meter.rejected.map((x) => x.reason)).toEqual([reason]);
      const [outcome] = await meter.waitSettled(1);
      expect(outcome?.failure).toBe('client_protocol');
    } finally {
      await f.cleanup();
      await up.close();
    }
  });

  it('meters a pipelined (smuggled-behind) second request on its own: over budget it is refused', async () => {
    const up = await startRawUpstream(answerHeads);
    const meter = new RecordingMeter(1);
    const f = await meteredForwarder(up.port, meter);
    try {
      const r = await rawExchange(f.fwd.socketPath, GOOD + GOOD_LAST);
      expect(r.text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 429']);
      expect(up.seen.join('').match(/POST \/v1\/chat/g)).toHaveLength(1);
    } finally {
      await f.cleanup();
      await up.close();
    }
  });
});
