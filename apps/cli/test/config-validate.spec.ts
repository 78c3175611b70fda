import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from './support';

const dir = tempDir('gs-cli-validate-');
beforeAll(() => {
  mkdirSync(join(dir.path, 'dir.json'));
  writeFileSync(join(dir.path, 'ok.json'), JSON.stringify({ name: 'demo', agents: [{ name: 'a', backend: 'mock' }] }));
  writeFileSync(
    join(dir.path, 'ok.yml'),
    'name: demo\nagents:\n  - { name: a, backend: mock }\n  - { name: b, backend: mock }\ntopology: [[a, b]]\n',
  );
  writeFileSync(join(dir.path, 'bad-schema.json'), JSON.stringify({ name: 'demo', agents: [] }));
  writeFileSync(join(dir.path, 'bad-parse.yaml'), 'name: [unclosed\n');
  writeFileSync(join(dir.path, 'proto.json'), '{"name":"demo","agents":[{"name":"a","__proto__":{"x":1}}]}');
  writeFileSync(join(dir.path, 'x.txt'), '{}');
  writeFileSync(
    join(dir.path, 'tmux-isolated.yaml'),
    'name: demo\nagents:\n  - { name: a, backend: tmux, client: codex, network: isolated }\n',
  );
  writeFileSync(
    join(dir.path, 'local-none.json'),
    JSON.stringify({ name: 'demo', agents: [{ name: 'a', backend: 'local', network: 'none' }] }),
  );
});
afterAll(() => dir.cleanup());

describe('genswarms config validate', () => {
  it('prints one line per valid file and exits 0 (no server needed)', async () => {
    const r = await cli(['config', 'validate', 'ok.json', 'ok.yml'], { GENSWARMS_URL: 'not a url' }, { cwd: dir.path });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ok.json: valid (demo: 1 agents, 0 objects, 0 edges)\nok.yml: valid (demo: 2 agents, 0 objects, 1 edges)\n');
  });

  test.each([
    ['bad-schema.json', 'validation_failed'],
    ['bad-parse.yaml', 'config_parse_error'],
    ['proto.json', ''],
    ['x.txt', 'unsupported_format'],
    ['missing.json', 'config_unreadable'],
    ['dir.json', 'config_unreadable'],
    ['tmux-isolated.yaml', 'unsupported_network'],
    ['local-none.json', 'unsupported_network'],
  ])('reports %s as invalid (%s) and exits 1', async (file, code) => {
    const r = await cli(['config', 'validate', 'ok.json', file], {}, { cwd: dir.path });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}: invalid: ${code}`);
  });

  it('prints a JSON array with --json', async () => {
    const r = await cli(['config', 'validate', '--json', 'ok.json', 'bad-schema.json'], {}, { cwd: dir.path });
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(parsed).toMatchObject([
      { file: 'ok.json', valid: true, config: { name: 'demo', agent_count: 1 } },
      { file: 'bad-schema.json', valid: false, error: 'validation_failed' },
    ]);
  });
});
