/**
 * The committed docs/openapi.json is the generated document (regenerate with
 * `npm run gen-openapi -w @genswarms/server`), it validates against the OpenAPI 3.1 schema, and the server
 * serves it at GET /api/openapi.json behind the same token as every other route.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { buildOpenApiDocument } from '../src/http/openapi/build-document';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

const COMMITTED = resolve(__dirname, '../../../docs/openapi.json');
const REGENERATE = 'npm run gen-openapi -w @genswarms/server';
const render = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;

describe('docs/openapi.json', () => {
  const generated = render(buildOpenApiDocument());
  if (process.env['GENSWARMS_UPDATE_OPENAPI'] === '1') writeFileSync(COMMITTED, generated);

  it('is the document generated from the zod schemas (no drift)', () => {
    const committed = existsSync(COMMITTED) ? readFileSync(COMMITTED, 'utf8') : '';
    if (committed !== generated) throw new Error(`docs/openapi.json is stale: run \`${REGENERATE}\` and commit it`);
  });

  it('validates against the OpenAPI 3.1 schema', () => {
    const dir = tempDir('gs-openapi-');
    try {
      const file = join(dir.path, 'openapi.json');
      writeFileSync(file, generated);
      const run = spawnSync(process.execPath, [join(__dirname, 'fixtures/validate-openapi.mjs'), file], { encoding: 'utf8', shell: false });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ valid: true, version: '3.1', errors: null });
    } finally {
      dir.cleanup();
    }
  });

  it('refuses a document that breaks the schema (the validator is not a no-op)', () => {
    const dir = tempDir('gs-openapi-');
    try {
      const file = join(dir.path, 'openapi.json');
      writeFileSync(file, JSON.stringify({ ...buildOpenApiDocument(), info: { title: 'x' } }));
      const run = spawnSync(process.execPath, [join(__dirname, 'fixtures/validate-openapi.mjs'), file], { encoding: 'utf8', shell: false });
      expect(JSON.parse(run.stdout)).toMatchObject({ valid: false });
    } finally {
      dir.cleanup();
    }
  });
});

describe('GET /api/openapi.json', () => {
  const token = 'openapi-spec-token-0123456789abcdef';
  let dir: ReturnType<typeof tempDir>;
  let s: TestServer;
  beforeAll(async () => {
    dir = tempDir('gs-openapi-srv-');
    s = await startTestServer(testConfig(dir.path, { tokens: { fullToken: token } }));
  });
  afterAll(async () => {
    await s.close();
    dir.cleanup();
  });

  it('answers the generated document to a caller with the token', async () => {
    const res = await request(s.url).get('/api/openapi.json').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(buildOpenApiDocument());
  });

  test.each([
    ['no token', undefined, 'unauthorized'],
    ['a wrong token', 'Bearer wrong-token', 'unauthorized'],
  ])('answers 401 to a caller with %s', async (_what, header, code) => {
    const req = request(s.url).get('/api/openapi.json');
    const res = await (header === undefined ? req : req.set('Authorization', header));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(code);
  });
});
