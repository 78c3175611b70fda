/**
 * Over HTTP, for every operation of the table: the config token (GENSWARMS_CONFIG_API_TOKEN) opens exactly
 * the operations the table marks `config`, and is refused with 401 on every `full` one.
 */
import request from 'supertest';
import { OPERATIONS } from '../src/http/operations';
import { fakeEngine } from './support/fake-engine';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

const F = 'scope-full-token-0123456789abcdef';
const C = 'scope-config-token-0123456789abcdef';
const dir = tempDir('gs-config-scope-');
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer(testConfig(dir.path, { tokens: { fullToken: F, configToken: C } }), { engine: fakeEngine({}) });
});
afterAll(async () => {
  await s.close();
  dir.cleanup();
});

const guarded = OPERATIONS.filter((op) => op.scope !== 'public').map((op) => [op.method, op.path, op.scope] as const);

test.each(guarded)('%s %s with the config token: %s scope', async (method, path, scope) => {
  const url = path.replace(/:[A-Za-z_]+/g, 'x1');
  const res = await request(s.url)[method](url).set('Authorization', `Bearer ${C}`);
  if (scope === 'config') expect(res.status).not.toBe(401);
  else expect([res.status, res.body.error]).toEqual([401, 'unauthorized']);
});
