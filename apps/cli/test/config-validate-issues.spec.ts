import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tempDir } from './support';

// `config validate` prints issues as `path: message`, names the agent and values of a plan refusal, lists the
// allowed values of enum fields and shows the offending line with a caret.
const dir = tempDir('gs-cli-validate-issues-');
afterAll(() => dir.cleanup());

const run = async (file: string, text: string): Promise<{ code: number; stdout: string }> => {
  writeFileSync(join(dir.path, file), text);
  const r = await cli(['config', 'validate', file], {}, { cwd: dir.path });
  return { code: r.code, stdout: r.stdout };
};

describe('config validate issue lines', () => {
  it('a plan refusal names agents.<i> (<name>), the backend and the value, and points at the field', async () => {
    const r = await run(
      'scraper.yaml',
      'name: x\nagents:\n  - name: a\n    backend: mock\n  - name: scraper\n    backend: local\n    network: isolated\n',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'scraper.yaml: invalid: unsupported_network: the backend cannot enforce this network mode',
        '  agents.1 (scraper): unsupported_network: the backend cannot enforce this network mode (backend local, network "isolated")',
        '      7 |     network: isolated',
        '        |              ^',
        '',
      ].join('\n'),
    );
  });

  it('an enum field lists its allowed values; the caret is under the value', async () => {
    const r = await run('lokal.yaml', 'name: x\nagents:\n  - name: a\n    backend: lokal\n');
    expect(r.stdout.split('\n').slice(1, 4)).toEqual([
      '  agents.0.backend: Invalid input; allowed: a backend type (local, bwrap, docker, tmux, mock, ssh, apple_container, swarm) or {type, runner?, opts?}; tmux runner: none, bwrap, docker',
      '      4 |     backend: lokal',
      '        |              ^',
    ]);
  });

  it('an unrecognised key in JSON points at that key', async () => {
    const r = await run('extra.json', '{\n  "name": "x",\n  "agents": [\n    { "name": "a", "colour": "blue" }\n  ]\n}\n');
    expect(r.stdout.split('\n').slice(1, 4)).toEqual([
      '  agents.0: Unrecognized key: "colour"',
      '      4 |     { "name": "a", "colour": "blue" }',
      '        |                    ^',
    ]);
  });

  test.each<[string, string]>([
    ['a terminal escape in the file is not replayed', 'name: x\nagents:\n  - name: a\n    backend: "\u001b[31mred"\n'],
    ['a path that does not exist in the file', 'name: x\nagents: []\n'],
  ])('%s', async (_what, text) => {
    const r = await run('odd.yaml', text);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('\u001b');
  });
});
