/**
 * The REST client against a real HTTP server on port 0 that records each request and answers a
 * scripted response: paths are filled and encoded, the token and body are sent, error bodies become
 * ClientErrors carrying their code, and anything else is a local code.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientError, GenswarmsClient, isClientError } from '../src/index';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: string;
}
let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let reply: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readAll(req).then((body) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
      res.writeHead(reply.status, { 'content-type': reply.type }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen = [];
  reply = { status: 200, type: 'application/json', body: '{}' };
});

const json = (status: number, body: unknown): typeof reply => ({ status, type: 'application/json', body: JSON.stringify(body) });

it('sends method, encoded path, query, token and JSON body', async () => {
  reply = json(200, { status: 'sent', agent: 'a b', id: 'i1', queued: 1 });
  const client = new GenswarmsClient({ baseUrl: `${baseUrl}/`, token: 'tok' });
  const answer = await client.call('sendTask', { params: { s: 'demo', a: 'a b' }, body: { task: 'hi' } });
  expect(answer.queued).toBe(1);
  expect(seen).toEqual([{ method: 'POST', url: '/api/swarms/demo/agents/a%20b/task', auth: 'Bearer tok', body: '{"task":"hi"}' }]);
  await client.call('listMessages', { params: { s: 'demo' }, query: { limit: 5 } });
  expect(seen[1]?.url).toBe('/api/swarms/demo/messages?limit=5');
});

it('sends a path parameter with a lone surrogate as U+FFFD (it threw a URIError)', async () => {
  reply = json(404, { error: 'swarm_not_found', message: 'Swarm not found' });
  seen = [];
  const err = await new GenswarmsClient({ baseUrl }).call('getSwarm', { params: { s: 'a\ud800b\udc00' } }).catch((e: unknown) => e);
  expect(err).toMatchObject({ code: 'swarm_not_found', status: 404 });
  expect(seen[0]?.url).toBe('/api/swarms/a%EF%BF%BDb%EF%BF%BD');
});

it('calls an operation without arguments and sends no token when none is set', async () => {
  reply = json(200, { swarms: [] });
  await expect(new GenswarmsClient({ baseUrl }).call('listSwarms')).resolves.toEqual({ swarms: [] });
  expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/swarms', auth: undefined, body: '' });
});

test.each([
  [404, { error: 'swarm_not_found', message: 'No such swarm.' }, 'swarm_not_found', {}],
  [409, { error: 'agent_not_ready', message: 'Not ready.', state: 'starting' }, 'agent_not_ready', { state: 'starting' }],
  [401, { error: 'unauthorized', message: 'Unauthorized' }, 'unauthorized', {}],
  [500, { nope: true }, 'invalid_response', {}],
])('an HTTP %i answer rejects with a ClientError carrying its code', async (status, body, code, details) => {
  reply = json(status, body);
  const err = await new GenswarmsClient({ baseUrl }).call('getSwarm', { params: { s: 'demo' } }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ClientError);
  expect(err).toMatchObject({ code, status, details });
  expect(isClientError(err, 'swarm_not_found')).toBe(code === 'swarm_not_found');
});

it('a body that is not JSON is invalid_response', async () => {
  reply = { status: 200, type: 'text/html', body: '<html>' };
  await expect(new GenswarmsClient({ baseUrl }).call('listSwarms')).rejects.toMatchObject({ code: 'invalid_response', status: 200 });
});

it('a text operation resolves to the text', async () => {
  reply = { status: 200, type: 'text/plain', body: '# HELP x\n' };
  await expect(new GenswarmsClient({ baseUrl }).call('metrics')).resolves.toBe('# HELP x\n');
});

it('no server is network_error with status 0', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await expect(new GenswarmsClient({ baseUrl: `http://127.0.0.1:${port}` }).call('listSwarms')).rejects.toMatchObject({
    code: 'network_error',
    status: 0,
  });
});

/** Compile-time checks (tsc runs over this spec in `npm run typecheck`); never called. */
async function typeChecks(c: GenswarmsClient): Promise<number> {
  // @ts-expect-error getSwarm needs its swarm name
  await c.call('getSwarm');
  // @ts-expect-error a task body is {task}
  await c.call('sendTask', { params: { s: 'a', a: 'b' }, body: { text: 'x' } });
  // @ts-expect-error no such operation
  await c.call('nope');
  const err = new ClientError('x', 'y');
  // @ts-expect-error codes are a closed union when narrowed
  if (isClientError(err, 'no_such_code')) return 0;
  return (await c.call('sendTask', { params: { s: 'a', a: 'b' }, body: { task: 'x' } })).queued;
}

it('keeps its compile-time checks', () => {
  expect(typeof typeChecks).toBe('function');
});

it('callWithText also answers the text exactly as sent, and a failure carries it', async () => {
  reply = { status: 200, type: 'application/json', body: '{ "swarms" : [] }\n' };
  const client = new GenswarmsClient({ baseUrl });
  await expect(client.callWithText('listSwarms', {})).resolves.toEqual({ body: { swarms: [] }, text: '{ "swarms" : [] }\n' });
  reply = { status: 404, type: 'application/json', body: '{"error":"swarm_not_found","message":"no"}' };
  const err = await client.callWithText('getSwarm', { params: { s: 'x' } }).catch((e: unknown) => e);
  expect(err).toMatchObject({ code: 'swarm_not_found', status: 404, text: '{"error":"swarm_not_found","message":"no"}' });
  reply = { status: 502, type: 'text/html', body: '<html>bad gateway</html>' };
  const bad = await client.callWithText('listSwarms', {}).catch((e: unknown) => e);
  expect(bad).toMatchObject({ code: 'invalid_response', status: 502, text: '<html>bad gateway</html>' });
});

it('callText answers a success text unparsed (a YAML snapshot) and still turns an error body into its ClientError', async () => {
  reply = { status: 200, type: 'application/yaml', body: 'name: demo\nagents: []\n' };
  const client = new GenswarmsClient({ baseUrl });
  await expect(client.callText('snapshotSwarm', { params: { s: 'demo' }, query: { format: 'yaml' } })).resolves.toBe(
    'name: demo\nagents: []\n',
  );
  expect(seen[0]?.url).toBe('/api/swarms/demo/snapshot?format=yaml');
  reply = json(404, { error: 'swarm_not_found', message: 'no' });
  await expect(client.callText('snapshotSwarm', { params: { s: 'x' } })).rejects.toMatchObject({ code: 'swarm_not_found', status: 404 });
});
