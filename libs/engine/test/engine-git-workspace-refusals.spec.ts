/** A git workspace whose source is not a safe repository or whose ref does not resolve: refused with a clear code, nothing created. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../src/lib/errors/engine-error';
import { makeHarness, type Harness } from './harness';

function git(cwd: string, args: readonly string[]): void {
  const r = spawnSync('/usr/bin/git', [...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function makeRepo(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  git(dir, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
  return dir;
}

/** `accepted`, or the refusal's `<status> <code>` (the kit's codeOf has no status and no accepted case). */
async function outcomeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (e === undefined) return 'accepted';
  if (e instanceof EngineError) return `${e.status} ${e.code}`;
  throw e;
}

const mockBackend = { type: 'mock', opts: { replies: ['x'], delay_ms: 86_400_000 } };

describe('git workspace refusals', () => {
  let h: Harness;
  let outside: string;
  beforeAll(async () => {
    h = await makeHarness();
    outside = fs.mkdtempSync('/var/tmp/gs-git-outside-');
    makeRepo(path.join(outside, 'repo'));
    const good = makeRepo(path.join(h.named, 'good'));
    fs.mkdirSync(path.join(h.named, 'plain'));
    const linked = path.join(h.named, 'linked');
    fs.mkdirSync(linked);
    fs.symlinkSync(path.join(good, '.git'), path.join(linked, '.git'));
    const gitfile = path.join(h.named, 'gitfile');
    fs.mkdirSync(gitfile);
    fs.writeFileSync(path.join(gitfile, '.git'), `gitdir: ${path.join(good, '.git')}\n`);
    fs.symlinkSync(good, path.join(h.named, 'link-to-good'));
  }, 60_000);
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const cases: [string, () => Record<string, unknown>, string][] = [
    ['a directory that is not a repository', () => ({ git: path.join(h.named, 'plain') }), '400 git_not_a_repository'],
    ['a path that does not exist', () => ({ git: path.join(h.named, 'missing') }), '400 git_not_a_repository'],
    ['a repository whose .git is a symbolic link', () => ({ git: path.join(h.named, 'linked') }), '400 git_not_a_repository'],
    ['a .git file pointing elsewhere', () => ({ git: path.join(h.named, 'gitfile') }), '400 git_not_a_repository'],
    ['a repository reached through a link below the root', () => ({ git: path.join(h.named, 'link-to-good') }), '400 unsafe_workspace'],
    ['a repository outside the workspace roots', () => ({ git: path.join(outside, 'repo') }), '400 workspace_outside_roots'],
    ['GENSWARMS_HOME', () => ({ git: h.home }), '400 unsafe_workspace'],
    ['a ref that does not resolve', () => ({ git: path.join(h.named, 'good'), ref: 'no-such-branch' }), '400 git_ref_unresolved'],
    ['a ref with shell syntax', () => ({ git: path.join(h.named, 'good'), ref: '$(touch /tmp/gs-pwned)' }), '400 validation_failed'],
    ['a ref that reads as an option', () => ({ git: path.join(h.named, 'good'), ref: '--output=/tmp/gs-pwned' }), '400 validation_failed'],
    ['a ref range', () => ({ git: path.join(h.named, 'good'), ref: 'HEAD..HEAD' }), '400 validation_failed'],
    ['an unknown key', () => ({ git: path.join(h.named, 'good'), hooks: true }), '400 validation_failed'],
  ];

  test.each(cases)('validate refuses %s', async (_what, workspace, code) => {
    const config = { name: 'gv', agents: [{ name: 'a', backend: mockBackend, workspace: workspace() }] };
    expect(await outcomeOf(h.engine.validateConfig(config, h.configDir))).toBe(code);
  });

  test.each(cases)('start refuses %s and creates nothing', async (_what, workspace, code) => {
    const config = { name: 'gs', agents: [{ name: 'a', backend: mockBackend, workspace: workspace() }] };
    expect(await outcomeOf(h.engine.startSwarm({ config }))).toBe(code);
    expect(fs.existsSync(path.join(h.home, 'workspaces', 'gs'))).toBe(false);
    expect(fs.existsSync('/tmp/gs-pwned')).toBe(false);
  });

  test.each([
    ['ssh', { type: 'ssh', host: 'user@example.com', opts: { key_path: '/nonexistent' } }],
    ['swarm', { type: 'swarm', image: 'genswarms/test-agent:latest' }],
  ])('a %s agent (its workspace is on another host) cannot have a git workspace', async (_kind, backend) => {
    const config = {
      name: 'gb',
      agents: [{ name: 'a', backend, client: { command: ['/bin/true'] }, workspace: { git: path.join(h.named, 'good') } }],
    };
    expect(await outcomeOf(h.engine.validateConfig(config, h.configDir))).toBe('400 validation_failed');
  });

  test('add_agent refuses each, and accepts the good repository', async () => {
    await h.engine.startSwarm({ config: { name: 'ga', agents: [{ name: 'base', backend: mockBackend }] } });
    for (const [what, workspace, code] of cases) {
      const got = await outcomeOf(h.engine.addAgent('ga', { name: 'n1', backend: mockBackend, workspace: workspace() } as never));
      expect(`${what}: ${got}`).toBe(`${what}: ${code}`);
    }
    expect(
      await outcomeOf(
        h.engine.addAgent('ga', { name: 'n2', backend: mockBackend, workspace: { git: path.join(h.named, 'good') } } as never),
      ),
    ).toBe('accepted');
    expect(fs.existsSync(path.join(h.home, 'workspaces', 'ga', 'n2', '.git'))).toBe(true);
    await h.engine.stopSwarm('ga', { purge: true });
  });

  test('scale refuses new instances when the repository stopped being one, and each instance has its own clone', async () => {
    const repo = makeRepo(path.join(h.named, 'scaled'));
    await h.engine.startSwarm({ config: { name: 'gc', agents: [{ name: 'w', backend: mockBackend, workspace: { git: repo } }] } });
    await h.engine.scaleAgents('gc', 'w', 3);
    const names = fs.readdirSync(path.join(h.home, 'workspaces', 'gc')).sort();
    expect(names).toEqual(['w', 'w_1', 'w_2', 'w_3']);
    const heads = names.map((n) => fs.readFileSync(path.join(h.home, 'workspaces', 'gc', n, '.git', 'HEAD'), 'utf8').trim());
    expect(heads).toEqual(names.map((n) => `ref: refs/heads/genswarms/gc/${n}`));
    fs.renameSync(path.join(repo, '.git'), path.join(repo, 'moved'));
    expect(await outcomeOf(h.engine.scaleAgents('gc', 'w', 5))).toBe('400 git_not_a_repository');
    await h.engine.stopSwarm('gc', { purge: true });
  }, 60_000);
});
