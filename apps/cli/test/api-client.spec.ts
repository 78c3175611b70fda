import { parseBaseUrl } from '../src/index';
import { captureServer, cli, closedPort } from './support';

describe('parseBaseUrl (GENSWARMS_URL)', () => {
  test.each<[string | undefined, string]>([
    [undefined, 'http://127.0.0.1:4000'],
    ['', 'http://127.0.0.1:4000'],
    ['  ', 'http://127.0.0.1:4000'],
    ['http://127.0.0.1:4000/', 'http://127.0.0.1:4000'],
    ['https://gs.example.com', 'https://gs.example.com'],
    ['http://[::1]:4000', 'http://[::1]:4000'],
    ['http://h:1/prefix/', 'http://h:1/prefix'],
  ])('%j → %s', (raw, want) => {
    expect(parseBaseUrl(raw)).toBe(want);
  });

  test.each([
    'localhost:4000',
    'ftp://h',
    'http://',
    'not a url',
    'http://u:p@h:4000',
    'http://h:4000/?token=x',
    'http://h:4000/#x',
    'file:///etc/passwd',
  ])('refuses %j (exit 2)', (raw) => {
    expect(() => parseBaseUrl(raw)).toThrow(expect.objectContaining({ exit: 2, code: 'invalid_url' }));
  });
});

describe('the API token', () => {
  const TOKEN = 'cli-token-xyz';
  let server: Awaited<ReturnType<typeof captureServer>>;
  beforeEach(async () => {
    server = await captureServer(() => ({ status: 200, body: { swarms: [] } }));
  });
  afterEach(async () => server.close());

  it('is sent verbatim as Bearer when set', async () => {
    const r = await cli(['status'], { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: ` ${TOKEN}` });
    expect(r.code).toBe(0);
    expect(server.headers[0]?.authorization).toBe(`Bearer  ${TOKEN}`);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  test.each([[undefined], [''], ['   ']])('is not sent when GENSWARMS_API_TOKEN is %j', async (token) => {
    const r = await cli(['status'], { GENSWARMS_URL: server.url, GENSWARMS_API_TOKEN: token });
    expect(r.code).toBe(0);
    expect(server.headers[0]).not.toHaveProperty('authorization');
  });

  it('has no --token flag', async () => {
    const r = await cli(['status', '--token', TOKEN], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(2);
    expect(server.headers).toHaveLength(0);
    expect(r.stderr).toMatch(/^genswarms: usage: /);
  });
});

describe('exit codes', () => {
  it('3 when nothing listens', async () => {
    const r = await cli(['status'], { GENSWARMS_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^genswarms: unreachable: /);
  });

  it('2 for an invalid GENSWARMS_URL', async () => {
    const r = await cli(['status'], { GENSWARMS_URL: 'localhost:4000' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^genswarms: invalid_url: GENSWARMS_URL must be an http or https URL/);
  });

  test.each([
    [401, { error: 'unauthorized', message: 'Invalid or missing API token' }, 4],
    [401, { error: 'token_required', message: 'API token required' }, 4],
    [404, { error: 'swarm_not_found', message: 'No such swarm' }, 1],
    [500, { error: 'internal_error', message: 'Internal error', request_id: 'r1' }, 1],
  ])('HTTP %i %j → exit %i with the error line, and --json prints the body unchanged', async (status, body, code) => {
    const server = await captureServer(() => ({ status, body }));
    try {
      const human = await cli(['status', 'demo'], { GENSWARMS_URL: server.url });
      expect(human.code).toBe(code);
      const details = Object.entries(body).filter(([k]) => k !== 'error' && k !== 'message');
      expect(human.stderr).toBe(`genswarms: ${body.error}: ${body.message}\n${details.map(([k, v]) => `  ${k}: ${String(v)}\n`).join('')}`);
      const json = await cli(['status', 'demo', '--json'], { GENSWARMS_URL: server.url });
      expect(json.code).toBe(code);
      expect(json.stdout).toBe(`${JSON.stringify(body)}\n`);
    } finally {
      await server.close();
    }
  });

  it('0 and a readable list on success', async () => {
    const server = await captureServer(() => ({
      status: 200,
      body: { swarms: [{ name: 'demo', status: 'running', agent_count: 2, object_count: 1 }] },
    }));
    try {
      const r = await cli(['status'], { GENSWARMS_URL: server.url });
      expect(r).toEqual({
        code: 0,
        stdout: 'SWARM  STATUS   AGENTS  OBJECTS  AGENT STATES\ndemo   running       2        1  -\n',
        stderr: '',
      });
    } finally {
      await server.close();
    }
  });
});

describe('usage', () => {
  test.each<[string[], number]>([
    [['--help'], 0],
    [['--version'], 0],
    [['-V'], 0],
    [[], 2],
    [['nope'], 2],
    [['status', 'a', 'b'], 2],
    [['up', '--port'], 2],
    [['config', 'validate'], 2],
  ])('%j → exit %i', async (argv, code) => {
    expect((await cli(argv, {})).code).toBe(code);
  });

  it('prints the version', async () => {
    expect((await cli(['--version'], {})).stdout).toBe('0.1.0\n');
  });

  test.each(['0', '65536', 'abc', '80x'])('up --port %s → exit 2 before starting anything', async (port) => {
    const r = await cli(['up', '--port', port], {}, { serverMain: '/nonexistent/main.js' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^genswarms: invalid_port: /);
  });
});
