import request from 'supertest';
import type { SwarmService } from '@genswarms/engine';
import { engineReadiness } from '../src/http/routes/health';
import { createApp, createAuthDeniedReporter, createMemoryEventSink, createServerLogger, IR_GATE_VALIDATOR } from '../src/index';
import { fakeEngine } from './support/fake-engine';
import { captureStream, startTestServer, tempDir, testConfig } from './support/harness';

const dir = tempDir('gs-health-');
afterAll(() => dir.cleanup());
const never = new Promise<never>(() => undefined);

describe('GET /readyz', () => {
  const answering = (): SwarmService => fakeEngine({ listSwarms: () => Promise.resolve({ swarms: [] }) });
  test.each<[string, number, () => SwarmService | undefined, () => boolean]>([
    ['the store answers and the runners were probed', 200, answering, () => true],
    ['no engine is wired', 503, () => undefined, () => true],
    ['the store query fails', 503, () => fakeEngine({ listSwarms: () => Promise.reject(new Error('SQLITE_IOERR')) }), () => true],
    ['the store does not answer in time', 503, () => fakeEngine({ listSwarms: () => never }), () => true],
    ['the runner probe failed', 503, answering, () => false],
  ])('%s → %i, {status} only', async (_label, status, engine, probe) => {
    const s = await startTestServer(testConfig(dir.path), { readiness: engineReadiness(engine(), { probeRunners: probe, timeoutMs: 50 }) });
    try {
      const res = await request(s.url).get('/readyz');
      expect([res.status, res.body]).toEqual([status, { status: status === 200 ? 'ready' : 'not_ready' }]);
    } finally {
      await s.close();
    }
  });

  it('shares one store query between concurrent probes and reuses an answer for a second', async () => {
    let calls = 0;
    let t = 1_000_000;
    const engine = fakeEngine({
      listSwarms: () => {
        calls += 1;
        return Promise.resolve({ swarms: [] });
      },
    });
    const probe = engineReadiness(engine, { now: () => t });
    expect(await Promise.all(Array.from({ length: 20 }, () => probe()))).toEqual(Array(20).fill(true));
    expect(await probe()).toBe(true);
    t += 999;
    await probe();
    expect(calls).toBe(1);
    t += 1;
    await probe();
    expect(calls).toBe(2);
  });

  it('is not ready when the runner probe throws, and recovers once it holds', async () => {
    let broken = true;
    const probe = engineReadiness(fakeEngine({ listSwarms: () => Promise.resolve({ swarms: [] }) }), {
      cacheMs: 0,
      probeRunners: () => {
        if (broken) throw new Error('probe failed');
        return true;
      },
    });
    expect(await probe()).toBe(false);
    broken = false;
    expect(await probe()).toBe(true);
  });

  it.each([
    [false, 200],
    [true, 503],
  ])('with closing=%s answers %i (a server that started closing is not ready)', async (closing, status) => {
    const events = createMemoryEventSink();
    const logger = createServerLogger(captureStream().stream, 'error');
    const app = createApp(testConfig(dir.path), {
      events,
      logger,
      reportDenial: createAuthDeniedReporter({ events, logger }),
      validator: IR_GATE_VALIDATOR,
      readiness: () => Promise.resolve(true),
      closing: () => closing,
    });
    expect((await request(app).get('/readyz')).status).toBe(status);
  });
});

describe('GET /healthz', () => {
  it('answers {status:"ok"} to GET and HEAD, with the hardening headers and no token', async () => {
    const s = await startTestServer(testConfig(dir.path, { tokens: { fullToken: 'health-token' } }));
    try {
      const res = await request(s.url).get('/healthz');
      expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
      expect(res.headers['cache-control']).toBe('no-store');
      expect((await request(s.url).head('/healthz')).status).toBe(200);
      for (const path of ['/healthz/', '/HEALTHZ', '/healthz/x', '/readyz/']) expect((await request(s.url).get(path)).status).toBe(401);
      expect((await request(s.url).post('/healthz')).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});
