import { join } from 'node:path';
import request from 'supertest';
import { loadServerConfig } from '../src/index';
import { parseLogLevel } from '../src/logging/log-level';
import { createServerLogger } from '../src/logging/logger';
import { captureStream, startTestServer, tempDir, testConfig } from './support/harness';

const dir = tempDir('gs-loglevel-');
afterAll(() => dir.cleanup());

describe('GENSWARMS_LOG_LEVEL', () => {
  test.each<[string | undefined, string]>([
    [undefined, 'info'],
    ['', 'info'],
    ['  ', 'info'],
    ['debug', 'debug'],
    [' WARN ', 'warn'],
    ['error', 'error'],
  ])('accepts %j as %s', (raw, level) => {
    expect(parseLogLevel(raw)).toEqual({ kind: 'ok', level });
  });

  test.each(['verbose', 'silly', 'trace', 'warning', '__proto__', 'constructor', '0', 'debug\0'])('refuses %j', (raw) => {
    expect(parseLogLevel(raw)).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('expected one of error, warn, info, debug'),
    });
  });

  it('refuses to start with an invalid level (exit-2 line names the variable)', async () => {
    const env = { GENSWARMS_HOME: join(dir.path, 'home'), GENSWARMS_SWARM_CONFIG_DIR: dir.path, GENSWARMS_LOG_LEVEL: 'loud' };
    expect(await loadServerConfig(env, { cwd: dir.path, uid: process.getuid?.() ?? 0 })).toMatchObject({
      kind: 'invalid',
      variable: 'GENSWARMS_LOG_LEVEL',
      line: 'genswarms: invalid GENSWARMS_LOG_LEVEL: "loud": expected one of error, warn, info, debug',
    });
  });
});

describe('request logs', () => {
  const jsonLines = (text: string): Array<Record<string, unknown>> =>
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>); // every line of the log stream is one JSON object

  it('are written at debug with request id, method, route template, status and duration', async () => {
    const s = await startTestServer(testConfig(dir.path)); // the harness logs at debug
    try {
      const res = await request(s.url).get('/api/swarms/nope/agents?x=secret-query-value');
      const lines = jsonLines(s.logs()).filter((r) => r['message'] === 'http_request');
      expect(lines).toEqual([
        {
          level: 'debug',
          message: 'http_request',
          request_id: res.headers['x-request-id'],
          method: 'GET',
          route: 'unmatched',
          status: 404,
          duration_ms: expect.any(Number),
          peer: '127.0.0.1',
          timestamp: expect.any(String),
        },
      ]);
      expect(s.logs()).not.toContain('secret-query-value');
      expect(s.logs()).not.toContain('/api/swarms/nope');
    } finally {
      await s.close();
    }
  });

  it('are not written at info (the default)', async () => {
    const log = captureStream();
    const s = await startTestServer(testConfig(dir.path), { logger: createServerLogger(log.stream, 'info') });
    try {
      await request(s.url).get('/').expect(200);
      await request(s.url).get('/nope').expect(404);
      expect(jsonLines(log.text()).filter((r) => r['message'] === 'http_request')).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
