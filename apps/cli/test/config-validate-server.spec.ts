import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { cli, tempDir } from './support';

// `config validate --server` asks the server, which runs every plan-time check start runs
// (docs/rest-api.md); the config goes as `start` sends it (relative paths resolved against the file).
const dir = tempDir('gs-cli-validate-srv-');
let server: FixtureServer;
beforeAll(async () => {
  mkdirSync(join(dir.path, 'sub'));
  writeFileSync(
    join(dir.path, 'sub', 'bogus.yaml'),
    'name: demo\nagents:\n  - { name: a, backend: mock, workspace: ws/a }\nobjects:\n  - { name: o, handler: Totally.Bogus }\n',
  );
  writeFileSync(join(dir.path, 'ok.json'), JSON.stringify({ name: 'demo', agents: [{ name: 'a', backend: 'mock' }] }));
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
  dir.cleanup();
});

describe('genswarms config validate --server', () => {
  it('sends the resolved config and reports the refusal start would give, exit 1', async () => {
    server.setRouter(() => ({
      status: 400,
      body: {
        valid: false,
        error: 'validation_failed',
        message: 'the swarm config does not match the schema',
        issues: [{ path: 'objects.0.handler', message: 'not a registered handler' }],
      },
    }));
    server.requests.length = 0;
    const r = await cli(['config', 'validate', '--server', 'sub/bogus.yaml'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('sub/bogus.yaml: invalid: validation_failed: the swarm config does not match the schema');
    expect(r.stdout).toContain('not a registered handler');
    expect(server.requests.map((q) => [q.method, q.url])).toEqual([['POST', '/api/config/validate']]);
    const sent = server.requests[0]?.body as { config: { agents: Array<{ workspace: string }> } };
    expect(sent.config.agents[0]?.workspace).toBe(join(dir.path, 'sub', 'ws', 'a'));
  });

  it('prints the server summary for a valid file, exit 0', async () => {
    server.setRouter(() => ({
      status: 200,
      body: {
        valid: true,
        format: 'json',
        config: { name: 'demo', agent_count: 1, object_count: 0, edge_count: 0, agents: ['a'], objects: [] },
      },
    }));
    const r = await cli(['config', 'validate', '--server', 'ok.json'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.stdout).toBe('ok.json: valid (demo: 1 agents, 0 objects, 0 edges)\n');
    expect(r.code).toBe(0);
  });

  it('a file the local gate refuses is reported without asking the server', async () => {
    writeFileSync(join(dir.path, 'empty.json'), JSON.stringify({ name: 'demo', agents: [] }));
    server.requests.length = 0;
    const r = await cli(['config', 'validate', '--server', 'empty.json'], { GENSWARMS_URL: server.url }, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('empty.json: invalid: validation_failed');
    expect(server.requests).toEqual([]);
  });
});
