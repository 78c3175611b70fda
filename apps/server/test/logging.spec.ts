import request from 'supertest';
import { createAuthDeniedReporter, createMemoryEventSink, createServerLogger } from '../src/index';
import { trySocket } from './support/clients';
import { captureStream, startTestServer, tempDir, testConfig } from './support/harness';

const F = 'tok-SUPERSECRET-full-0123456789';
const C = 'tok-SUPERSECRET-config-9876543210';
const dir = tempDir('gs-logs-');
afterAll(() => dir.cleanup());

describe('tokens never reach the logs', () => {
  it('after header, socket auth, ?token= and wrong tokens of every kind', async () => {
    const s = await startTestServer(testConfig(dir.path, { tokens: { fullToken: F, configToken: C } }));
    try {
      await request(s.url).get('/api/swarms').set('Authorization', `Bearer ${F}`);
      await request(s.url).get('/api/swarms').set('Authorization', `Bearer ${C}`);
      await request(s.url).get(`/api/swarms?token=${F}`);
      await request(s.url).get(`/nope?token=${C}`).set('Authorization', `Bearer ${F}x`);
      await request(s.url).get('/boom').set('Authorization', `Bearer ${F}`);
      await trySocket(s.url, { auth: { token: F } });
      await trySocket(s.url, { auth: { token: `${F}-wrong` } });
      await trySocket(s.url, { query: { token: F } });
      await trySocket(s.url, { query: { token: `${C}` } });
      await trySocket(s.url, { extraHeaders: { Authorization: `Bearer ${F}` } });
      const everything = s.logs() + s.stdout() + s.stderr() + JSON.stringify(s.events.events);
      expect(everything.length).toBeGreaterThan(0);
      expect(everything).not.toContain('SUPERSECRET');
      // request lines carry the route template, never the URL or its query
      const requests = s
        .logs()
        .split('\n')
        .filter((l) => l.includes('"http_request"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(requests.map((r) => r['route'])).toEqual(expect.arrayContaining(['/api/swarms', 'unmatched']));
      expect(requests.every((r) => !('url' in r))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('the logger scrubs Authorization, auth objects and token query values it is handed', () => {
    const out = captureStream();
    const logger = createServerLogger(out.stream);
    logger.info('request', {
      url: `/socket.io/?EIO=4&token=${F}`,
      headers: { authorization: `Bearer ${F}` },
      auth: { token: F },
      nested: { api_key: F, fine: 'ok' },
      note: `GET /x?token=${F} with Bearer ${F}`,
    });
    logger.info(`plain message ?token=${F}`);
    const text = out.text();
    expect(text).not.toContain('SUPERSECRET');
    expect(text).toContain('token=[REDACTED]');
    expect(text).toContain('"fine":"ok"');
  });
});

describe('auth_denied rate limit', () => {
  it('emits one event per (peer, reason) per 10 s and reports the suppressed count on the next', () => {
    let now = 1_000_000;
    const events = createMemoryEventSink();
    const logger = createServerLogger(captureStream().stream);
    const report = createAuthDeniedReporter({ events, logger, now: () => now });
    const denial = { peer: '10.0.0.9', transport: 'http' as const, method: 'GET', route: '/api/swarms', reason: 'unauthorized' as const };
    report(denial);
    report(denial);
    report(denial);
    report({ ...denial, reason: 'token_required' });
    report({ ...denial, peer: '10.0.0.10' });
    expect(events.events).toHaveLength(3);
    now += 9_999;
    report(denial);
    expect(events.events).toHaveLength(3);
    now += 1;
    report(denial);
    expect(events.events).toHaveLength(4);
    expect(events.events[3]).toEqual({
      level: 'warning',
      category: 'system',
      swarm: null,
      agent: null,
      event_type: 'auth_denied',
      message: expect.any(String),
      metadata: { ...denial, suppressed: 3 },
    });
    expect(events.events[0]?.metadata).not.toHaveProperty('suppressed');
  });
});
