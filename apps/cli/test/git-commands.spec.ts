import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { terminalDiffLine } from '../src/commands/diff';
import { cli, tempDir, upRealServer } from './support';

const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER_MAIN = join(ROOT, 'apps', 'server', 'dist', 'main.js');
const built = buildOnce([join(ROOT, 'apps', 'server', 'tsconfig.lib.json')]);
if (built.kind === 'failed') throw new Error(`the server build failed: ${built.output.slice(0, 2000)}`);

function git(cwd: string, args: readonly string[]): string {
  const r = spawnSync('/usr/bin/git', [...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

describe('terminal diff lines', () => {
  test.each([
    ['an escape sequence', '+\x1b[2J\x1b]0;pwned\x07', '+\\x1b[2J\\x1b]0;pwned\\x07'],
    ['a carriage return', '+ok\rbad', '+ok\\x0dbad'],
    ['a tab', '+\tx', '+\tx'],
    ['C1 controls', '+\u009b31m', '+\\x9b31m'],
  ])('shows %s as text, never as a control', (_what, line, shown) => {
    expect(terminalDiffLine(line, false)).toBe(shown);
    expect(terminalDiffLine(line, true)).toBe(`\x1b[32m${shown}\x1b[0m`);
  });
});

describe('genswarms diff and fetch, against the real server', () => {
  const dir = tempDir('gs-cli-git-');
  let env: Record<string, string>;
  let repo: string;
  const run = (argv: string[]): ReturnType<typeof cli> => cli(argv, env, { cwd: dir.path });

  beforeAll(async () => {
    const roots = join(dir.path, 'roots');
    repo = join(roots, 'repo');
    mkdirSync(repo, { recursive: true });
    git(repo, ['init', '-q', '--initial-branch=main']);
    writeFileSync(join(repo, 'lib.txt'), 'one\n');
    git(repo, ['add', '.']);
    git(repo, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-qm', 'first']);
    writeFileSync(
      join(dir.path, 'g.json'),
      JSON.stringify({ name: 'g', agents: [{ name: 'dev', backend: 'mock', workspace: { git: repo } }] }),
    );
    env = await upRealServer(dir.path, SERVER_MAIN, { GENSWARMS_WORKSPACE_ROOTS: roots });
    const started = await run(['start', 'g.json']);
    expect(started.code).toBe(0);
    // the agent's uncommitted work, in its clone (its own file: the host reads no file of another uid there)
    const ws = join(dir.path, 'home', 'workspaces', 'g', 'dev');
    writeFileSync(join(ws, 'lib.txt'), 'one\ntwo\n');
    const owner = statSync(ws);
    chownSync(join(ws, 'lib.txt'), owner.uid, owner.gid);
  }, 60_000);
  afterAll(async () => {
    await run(['down']);
    dir.cleanup();
  });

  it('diff prints the unified diff, --stat a diffstat, --json the server body', async () => {
    const diff = await run(['diff', 'g', 'dev']);
    expect([diff.code, diff.stderr]).toEqual([0, '']);
    expect(diff.stdout).toContain('+two');
    expect((await run(['diff', 'g', 'dev', '--stat'])).stdout).toMatch(/lib\.txt \| 1 \+/);
    const json = JSON.parse((await run(['diff', 'g', 'dev', '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ truncated: false, diff: expect.stringContaining('+two') });
  });

  it('diff of an agent without a git workspace exits 1 with no_git_workspace', async () => {
    const r = await run(['diff', 'g', 'nobody']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([1, expect.stringMatching(/^genswarms: nobody: no_git_workspace: /)]);
  });

  it('fetch takes only committed work unless --include-uncommitted', async () => {
    const plain = await run(['fetch', 'g']);
    expect([plain.code, plain.stdout]).toEqual([0, expect.stringMatching(/^dev: genswarms\/g\/dev -> [0-9a-f]{12}\n$/)]);
    expect(git(repo, ['show', 'genswarms/g/dev:lib.txt'])).toBe('one\n');
    const all = await run(['fetch', 'g', 'dev', '--include-uncommitted']);
    expect(all.stdout).toMatch(/\(with uncommitted changes\)\n$/);
    expect(git(repo, ['show', 'genswarms/g/dev:lib.txt'])).toBe('one\ntwo\n');
    expect(git(repo, ['symbolic-ref', 'HEAD']).trim()).toBe('refs/heads/main');
  });
});
