// Logger overhead per record: the server's winston logger (with its secret scrubbing) vs pino with
// redaction, written to a sink that drops bytes. Figures only, no assertion (docs/observability.md).
// Run after `npx nx run server:build`: node apps/server/bench/log-overhead.cjs [records]
// pino is not a dependency: NODE_PATH=<dir with pino installed> (npm i --prefix <dir> pino@10.4.0).
'use strict';
const { Writable } = require('node:stream');
const { createServerLogger } = require('../dist/logging/logger');

const N = Number(process.argv[2] ?? 100000);
const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
const record = () => ({
  request_id: '1715d4b4-2f9c-4e0e-9ac3-8b0111053896',
  method: 'GET',
  route: '/api/swarms/:s/agents/:a',
  status: 200,
  duration_ms: 1.234,
  peer: '127.0.0.1',
});

function time(label, fn) {
  for (let i = 0; i < 2000; i += 1) fn(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i += 1) fn();
  const ns = Number(process.hrtime.bigint() - t0) / N;
  console.log(`${label.padEnd(44)} ${(ns / 1000).toFixed(2)} µs/record`);
}

const w = createServerLogger(sink(), 'debug');
time('winston + scrub, enabled (debug)', () => w.debug('http_request', record()));
const wi = createServerLogger(sink(), 'info');
time('winston + scrub, debug at info, guarded', () => wi.isLevelEnabled('debug') && wi.debug('http_request', record()));
time('winston + scrub, debug at info, unguarded', () => wi.debug('http_request', record()));

let pino;
try {
  pino = require('pino');
} catch {
  console.log('pino not installed: skipped (see the header)');
}
if (pino !== undefined) {
  const redact = { paths: ['authorization', 'headers', 'auth', '*.token', '*.api_key'], censor: '[REDACTED]' };
  const p = pino({ level: 'debug', redact, base: null }, sink());
  time('pino + redact, enabled (debug)', () => p.debug(record(), 'http_request'));
  const pi = pino({ level: 'info', redact, base: null }, sink());
  time('pino + redact, debug at info', () => pi.debug(record(), 'http_request'));
}
