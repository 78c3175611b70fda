/**
 * The routes' one dispatch layer against a real express app on port 0: literal and templated paths, strict and
 * case-sensitive matching, HEAD by the GET route, percent-decoded parameters, and hostile paths that must reach
 * no handler (or the error handler, for an escape that does not decode).
 */
import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { DISPATCHED_ROUTES, ROUTE_TEMPLATE_LOCAL, routeDispatcher } from '../src/http/route-dispatch';

const answer =
  (name: string) =>
  (req: Request, res: Response): void => {
    res.json({ route: name, params: { ...req.params }, template: res.locals[ROUTE_TEMPLATE_LOCAL] as unknown });
  };

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(
    routeDispatcher([
      { method: 'get', path: '/api/swarms', handler: answer('list') },
      { method: 'post', path: '/api/swarms', handler: answer('create') },
      { method: 'get', path: '/api/swarms/:s', handler: answer('one') },
      { method: 'get', path: '/api/swarms/:s/agents/:a', handler: answer('agent') },
      { method: 'get', path: '/api/swarms/:s/agents', handler: answer('agents') },
      {
        method: 'get',
        path: '/boom',
        handler: () => {
          throw new Error('boom');
        },
      },
    ]),
  );
  app.use((_req: Request, res: Response) => void res.status(404).json({ route: 'none' }));
  app.use(
    (err: unknown, _req: Request, res: Response, _next: NextFunction) =>
      void res.status(err instanceof URIError ? 404 : 500).json({ route: err instanceof URIError ? 'uri_error' : 'error' }),
  );
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One request with the path sent exactly as written (fetch would normalise `..` away). */
function call(method: string, path: string): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) });
      });
    });
    req.on('error', reject);
    req.setHeader('connection', 'close');
    req.path = path;
    req.end();
  });
}

describe('the route dispatcher', () => {
  it.each([
    ['GET', '/api/swarms', 200, 'list', {}],
    ['POST', '/api/swarms', 200, 'create', {}],
    ['GET', '/api/swarms/s1', 200, 'one', { s: 's1' }],
    ['GET', '/api/swarms/s1/agents', 200, 'agents', { s: 's1' }],
    ['GET', '/api/swarms/s1/agents/a%2Db', 200, 'agent', { s: 's1', a: 'a-b' }],
    ['GET', '/api/swarms/s1/agents/..', 200, 'agent', { s: 's1', a: '..' }], // a value; the handler's Name check refuses it
    ['GET', '/api/swarms/__proto__', 200, 'one', { s: '__proto__' }],
    ['GET', '/api/swarms/', 404, 'none', undefined], // strict: no trailing slash
    ['GET', '/API/swarms', 404, 'none', undefined], // case-sensitive
    ['GET', '/api/swarms//agents', 404, 'none', undefined], // an empty parameter is no parameter
    ['GET', '/api/swarms/s1/agents/a/extra', 404, 'none', undefined],
    ['DELETE', '/api/swarms', 404, 'none', undefined], // no such method: on to the 404, never a 405
    ['PUT', '/api/swarms/s1', 404, 'none', undefined],
    ['GET', '/api/swarms/%E0%A4%A', 404, 'uri_error', undefined], // a malformed escape goes to the error handler
    ['GET', '/api/swarms/s1%2Fagents', 200, 'one', { s: 's1/agents' }], // an encoded slash stays inside its segment
    ['GET', '/boom', 500, 'error', undefined], // a handler's throw goes to the error handler
  ])('%s %s → %i %s', async (method, path, status, route, params) => {
    const got = await call(method, path);
    expect(got.status).toBe(status);
    expect(got.body?.['route']).toBe(route);
    if (params !== undefined) expect(got.body?.['params']).toEqual(params);
  });

  it('answers HEAD with the GET route, without a body', async () => {
    const got = await call('HEAD', '/api/swarms/s1');
    expect(got).toEqual({ status: 200, body: undefined });
  });

  it('names the template it matched for the access log', async () => {
    expect((await call('GET', '/api/swarms/x/agents/y')).body?.['template']).toBe('/api/swarms/:s/agents/:a');
  });

  it('lists what it answers, and refuses a literal route registered twice', () => {
    expect(routeDispatcher([{ method: 'get', path: '/a', handler: answer('a') }])[DISPATCHED_ROUTES]).toEqual(['GET /a']);
    expect(() =>
      routeDispatcher([
        { method: 'get', path: '/a', handler: answer('a') },
        { method: 'get', path: '/a', handler: answer('b') },
      ]),
    ).toThrow('registered twice');
  });
});
