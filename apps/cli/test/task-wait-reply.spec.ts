import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { cli, tempDir, upRealServer } from './support';
import type { FixtureServer } from './fixture-server';
import { startFixtureServer } from './fixture-server';

// `task --wait` prints the whole reply of the task's turn (GET …/turns/:t), not the server's 100-character preview;
// against an older server without that route it falls back to the preview and says so.
const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER_MAIN = join(ROOT, 'apps', 'server', 'dist', 'main.js');
const built = buildOnce([join(ROOT, 'apps', 'server', 'tsconfig.lib.json')]);
if (built.kind === 'failed') throw new Error(`the server build failed: ${built.output.slice(0, 2000)}`);

const TAIL = 'and this is the end of a reply well past the preview';
// Over 100 characters; an escape sequence and JSON the CLI must neither run nor parse.
const REPLY = `long: {{content}} ${'0123456789'.repeat(12)} \u001b[31m{"x":1} ${TAIL}`;
// eslint-disable-next-line no-control-regex -- the assertion is that no escape sequence is printed
const ESC_RE = /\u001b/;

describe('task --wait against the real server', () => {
  const dir = tempDir('gs-cli-task-reply-');
  let env: Record<string, string>;
  const run = (argv: string[]): ReturnType<typeof cli> => cli(argv, env, { cwd: dir.path });

  beforeAll(async () => {
    writeFileSync(
      join(dir.path, 'tr.yaml'),
      `name: tr\nagents:\n  - { name: long, backend: { type: mock, opts: { replies: [${JSON.stringify(REPLY)}] } } }\n`,
    );
    env = await upRealServer(dir.path, SERVER_MAIN);
    expect((await run(['start', 'tr.yaml'])).code).toBe(0);
  });
  afterAll(async () => {
    await run(['down']);
    dir.cleanup();
  });

  it('prints the whole reply, control characters neutralised', async () => {
    const r = await run(['task', 'tr', 'long', '--wait', 'the', 'work']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [sent, header, ...reply] = r.stdout.split('\n');
    expect(sent).toMatch(/^sent task \S+ to tr\/long \(queued 1\); waiting for its turn$/);
    expect(header).toMatch(/^turn [a-z0-9]+ completed; reply:$/);
    expect(reply.join('\n')).toBe(`${REPLY.replace('{{content}}', 'the work').replace('\u001b', '?')}\n`);
    expect(r.stdout).toContain(TAIL);
    expect(r.stdout).not.toMatch(ESC_RE);
  });

  it('--json: the task answer, then the ended turn with its whole reply as one JSON line', async () => {
    const r = await run(['task', 'tr', 'long', '--wait', '--json', 'again']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [sent, turn] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(sent).toMatchObject({ status: 'sent', agent: 'long' });
    expect(turn).toMatchObject({ item_id: sent?.['id'], status: 'completed', reply_preview: expect.any(String) });
    expect(String(turn?.['reply']).trim()).toBe(REPLY.replace('{{content}}', 'again'));
  });
});

describe('task --wait against an older server (no GET …/turns/:t)', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer((req) => {
      if (req.method === 'POST' && req.url === '/api/swarms/demo/agents/a/task')
        return { status: 200, body: { status: 'sent', agent: 'a', id: 'i1', queued: 1 } };
      if (req.url.startsWith('/api/swarms/demo/agents/a/turns?'))
        return {
          status: 200,
          body: { turns: [{ id: 't1', item_id: 'i1', status: 'completed', reply_preview: 'the first 100 characters' }] },
        };
      return { status: 404, body: { error: 'not_found', message: 'No route' } };
    });
    server.setSocketScript({ knownSwarms: ['demo'] });
  });
  afterAll(async () => server.close());

  it('prints the preview with a note on stderr, exit 0', async () => {
    const r = await cli(['task', 'demo', 'a', '--wait', 'hi'], { GENSWARMS_URL: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toEqual(['turn t1 completed; reply (its first 100 characters):', 'the first 100 characters', '']);
    expect(r.stderr).toMatch(/^genswarms: note: this server cannot answer a whole reply/);
    expect(server.requests.map((q) => `${q.method} ${q.url.split('?')[0]}`)).toContain('GET /api/swarms/demo/agents/a/turns/t1');
  });
});
