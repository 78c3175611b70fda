import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { UNAUTHORIZED_BODY } from '@genswarms/security';
import { startTestServer, tempDir, testConfig } from './support/harness';
import type { TestServer } from './support/harness';

// The dashboard's static files under /ui/ (docs/dashboard.md): no token, strict CSP, nosniff; the API keeps its token.
const F = 'ui-full-token';
const dir = tempDir('gs-ui-');
const ui = join(dir.path, 'ui');
mkdirSync(ui);
writeFileSync(join(ui, 'index.html'), '<!doctype html><title>genswarms</title><script src="/ui/app.js"></script>');
writeFileSync(join(ui, 'app.js'), 'console.log(1);');
writeFileSync(join(ui, 'app.css'), 'body{}');
writeFileSync(join(ui, '.hidden'), 'dotfile');
writeFileSync(join(dir.path, 'outside.txt'), 'outside the ui root');

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

let tokened: TestServer; // F set: the API needs it, /ui/ does not
let open: TestServer; // F unset (loopback mode): the Host check applies to /ui/ too
let missing: TestServer; // no built dashboard

beforeAll(async () => {
  tokened = await startTestServer(testConfig(dir.path, { tokens: { fullToken: F } }), { uiRoot: ui });
  open = await startTestServer(testConfig(dir.path), { uiRoot: ui });
  missing = await startTestServer(testConfig(dir.path), { uiRoot: join(dir.path, 'not-built') });
});
afterAll(async () => {
  await Promise.all([tokened.close(), open.close(), missing.close()]);
  dir.cleanup();
});

describe('/ui/ static assets', () => {
  test.each([
    ['/ui/', 'text/html; charset=utf-8'],
    ['/ui/index.html', 'text/html; charset=utf-8'],
    ['/ui/app.js', 'text/javascript; charset=utf-8'],
    ['/ui/app.css', 'text/css; charset=utf-8'],
  ])('GET %s is served without a token, with the CSP, nosniff and no framing', async (path, type) => {
    const res = await request(tokened.url).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  test.each([['/ui/nope.js'], ['/ui/.hidden'], ['/ui/../outside.txt'], ['/ui/%2e%2e/outside.txt'], ['/ui/..%2foutside.txt'], ['/ui/%00']])(
    'GET %s is 404 with the CSP and never a file outside the root',
    async (path) => {
      const res = await request(tokened.url).get(path);
      expect([400, 401, 404]).toContain(res.status);
      expect(res.text).not.toContain('outside the ui root');
      expect(res.text).not.toContain('dotfile');
    },
  );

  it('answers 404 not_found when the dashboard is not built', async () => {
    const res = await request(missing.url).get('/ui/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'No such file' });
    expect(res.headers['content-security-policy']).toBe(CSP);
  });

  test.each([['POST'], ['PUT'], ['DELETE'], ['PATCH']])('%s /ui/ is not served: it goes through the token check (401)', async (m) => {
    const res = await request(tokened.url)[m.toLowerCase() as 'post'](`/ui/`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED_BODY);
  });
});

describe('the API keeps its token', () => {
  test.each([['/'], ['/api/swarms'], ['/api/events'], ['/socket.io/?EIO=4&transport=polling']])(
    'GET %s without a token is 401',
    async (path) => {
      const res = await request(tokened.url).get(path);
      expect(res.status).toBe(401);
    },
  );

  it('GET / with the token still answers', async () => {
    const res = await request(tokened.url)
      .get('/')
      .set({ Authorization: `Bearer ${F}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});

describe('Origin check under /ui/', () => {
  it('an unsafe method from a foreign Origin is refused even with the token (403 origin_not_allowed)', async () => {
    const res = await request(tokened.url)
      .post('/ui/')
      .set({ Authorization: `Bearer ${F}`, Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('origin_not_allowed');
  });

  it('a GET with a foreign Origin gets the files but no CORS grant (the browser keeps them from that page)', async () => {
    const res = await request(tokened.url).get('/ui/app.js').set('Origin', 'https://evil.example');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('Host check on /ui/ (loopback mode)', () => {
  test.each([['evil.example'], ['evil.example:4000'], ['localhost.evil.example']])('Host %s is 403 host_not_allowed', async (host) => {
    const res = await request(open.url).get('/ui/').set('Host', host);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('host_not_allowed');
    expect(res.text).not.toContain('<script');
  });

  it('the server’s own Host is served', async () => {
    const res = await request(open.url).get('/ui/');
    expect(res.status).toBe(200);
  });
});
