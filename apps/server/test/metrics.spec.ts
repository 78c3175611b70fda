import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { mockAgent, startEngineServer, waitFor } from './support/engine-server';
import type { EngineServer } from './support/engine-server';
import { parsePromText } from './support/prom-text';
import type { PromFamily } from './support/prom-text';
import { connectSwarm } from './support/swarm-socket';
import { startTestServer, tempDir, testConfig } from './support/harness';
import { createServerMetrics, spellNaN } from '../src/metrics/server-metrics';

const F = 'metrics-token-0123456789';
let s: EngineServer;
beforeAll(async () => {
  s = await startEngineServer({ tokens: { fullToken: F } });
});
afterAll(async () => {
  await s.close();
});

const auth = { authorization: `Bearer ${F}` };
async function scrape(): Promise<Map<string, PromFamily>> {
  const res = await request(s.url).get('/metrics').set(auth).expect(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePromText(res.text);
}
function sum(f: PromFamily | undefined, match: Record<string, string> = {}, name = f?.name): number {
  return (f?.samples ?? [])
    .filter((x) => x.name === name && Object.entries(match).every(([k, v]) => x.labels[k] === v))
    .reduce((a, x) => a + x.value, 0);
}

describe('GET /metrics (Prometheus text format)', () => {
  it('refuses a caller without the token', async () => {
    const res = await request(s.url).get('/metrics');
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('genswarms_');
  });

  it('reports agents, turns, durations, messages, events, sockets, HTTP by route template and the process', async () => {
    const writer = 'draft\n<<SWARM_MSG:TO=critic:START>>\nplease review\n<<SWARM_MSG:END>>';
    const config = {
      name: 'metered',
      agents: [mockAgent('writer', [writer]), mockAgent('critic', ['ok'])],
      topology: [['writer', 'critic']],
    };
    await request(s.url).post('/api/swarms').set(auth).send({ config }).expect(201);
    const client = await connectSwarm(s.url, { token: F });
    try {
      for (const a of ['writer', 'critic'])
        await waitFor(async () => (await request(s.url).get(`/api/swarms/metered/agents/${a}`).set(auth)).body.state === 'idle', a);
      await request(s.url).post('/api/swarms/metered/agents/writer/task').set(auth).send({ task: 'essay' }).expect(200);
      const done = (m: Map<string, PromFamily>): boolean => sum(m.get('genswarms_turns_total'), { status: 'completed' }) >= 2;
      const m = await waitFor(async () => {
        const got = await scrape();
        return done(got) ? got : undefined;
      }, 'two completed turns in /metrics');

      expect(m.get('genswarms_agents')?.type).toBe('gauge');
      expect(sum(m.get('genswarms_agents'), { backend: 'mock' })).toBe(2);
      expect(
        m
          .get('genswarms_agent_inbox_depth')
          ?.samples.map((x) => x.labels['agent'])
          .sort(),
      ).toEqual(['critic', 'writer']);
      const duration = m.get('genswarms_turn_duration_seconds');
      expect(duration?.type).toBe('histogram');
      expect(sum(duration, { status: 'completed' }, 'genswarms_turn_duration_seconds_count')).toBe(2);
      expect(sum(duration, { status: 'completed', le: '+Inf' }, 'genswarms_turn_duration_seconds_bucket')).toBe(2);
      const latency = m.get('genswarms_receipt_to_event_seconds');
      expect(latency?.type).toBe('histogram');
      expect(sum(latency, {}, 'genswarms_receipt_to_event_seconds_count')).toBe(2);
      expect(sum(m.get('genswarms_messages_routed_total'), { type: 'direct' })).toBe(1);
      expect(sum(m.get('genswarms_events_total'), { category: 'agent', event_type: 'turn_started' })).toBe(2);
      expect(sum(m.get('genswarms_socket_clients'))).toBe(1);
      expect(sum(m.get('process_cpu_seconds_total'))).toBeGreaterThan(0);
      expect(m.get('nodejs_heap_size_used_bytes')?.type).toBe('gauge');
      // sampled every EVENT_LOOP_SAMPLE_MS (100 ms, not prom-client's 10 ms: an idle server woke 100 times a second)
      expect(m.get('nodejs_eventloop_lag_p99_seconds')?.type).toBe('gauge');

      const routes = new Set(m.get('genswarms_http_request_duration_seconds')!.samples.map((x) => x.labels['route']));
      expect(routes).toContain('/api/swarms/:s/agents/:a');
      expect(routes).toContain('/api/swarms/:s/agents/:a/task');
      expect(routes).toContain('unmatched'); // the 401 above, refused before routing
      for (const r of routes) expect(r).not.toMatch(/metered|writer|critic/); // never a raw path
    } finally {
      client.close();
    }
  });
});

describe('the exposition', () => {
  it('spells a NaN sample NaN, as the text format does (prom-client writes Nan before the first event-loop sample)', async () => {
    const text = await createServerMetrics().render();
    expect(text).not.toMatch(/ Nan$/m);
    expect(() => parsePromText(text)).not.toThrow();
    expect(spellNaN('# HELP a Nan\na{l="x Nan"} Nan\nb 1\n')).toBe('# HELP a Nan\na{l="x Nan"} NaN\nb 1\n');
  });
});

describe('GET /healthz and /readyz', () => {
  it('answer {status} and nothing else, without a token', async () => {
    const health = await request(s.url).get('/healthz').expect(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await request(s.url).get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });
});

describe('HTTP route labels', () => {
  it('are route templates, /ui/* for the dashboard files, and unmatched for everything else', async () => {
    const dir = tempDir('gs-metrics-ui-');
    const ui = join(dir.path, 'ui');
    mkdirSync(ui);
    writeFileSync(join(ui, 'app.js'), 'console.log(1);');
    const t = await startTestServer(testConfig(dir.path), { uiRoot: ui });
    try {
      for (const path of ['/ui/app.js', '/ui/missing-file-name.js', '/uinope', '/api/swarms/some-swarm-name', '/healthz'])
        await request(t.url).get(path);
      const m = parsePromText((await request(t.url).get('/metrics').expect(200)).text);
      const routes = new Set(m.get('genswarms_http_request_duration_seconds')!.samples.map((x) => x.labels['route']));
      expect([...routes].sort()).toEqual(['/healthz', '/ui/*', 'unmatched']);
    } finally {
      await t.close();
      dir.cleanup();
    }
  });
});
