/** A git workspace's clone through the swarm's lifecycle: restart and crash recovery reuse it untouched, stop keeps it, purge deletes it. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeHarness, type Harness } from './harness';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;

function git(cwd: string, args: readonly string[]): string {
  const r = spawnSync('/usr/bin/git', [...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const MOCK = { type: 'mock', opts: { replies: ['x'], delay_ms: 86_400_000 } };

d('git workspace lifecycle', () => {
  let h: Harness;
  afterEach(async () => {
    await h.cleanup();
  });

  test('restart and recovery keep the agent’s work; the operator’s repository moving on does not reset the clone', async () => {
    h = await makeHarness();
    const repo = path.join(h.named, 'repo');
    fs.mkdirSync(repo);
    git(repo, ['init', '-q']);
    git(repo, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-q', '--allow-empty', '-m', 'first']);
    await h.engine.startSwarm({ config: { name: 'lc', agents: [{ name: 'dev', backend: MOCK, workspace: { git: repo } }] } });
    const ws = path.join(h.home, 'workspaces', 'lc', 'dev');
    const draft = path.join(ws, 'draft.txt');
    fs.writeFileSync(draft, 'work\n');
    fs.chownSync(draft, fs.statSync(ws).uid, fs.statSync(ws).gid);
    const before = await h.engine.agentGitChanges('lc', 'dev');
    git(repo, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-q', '--allow-empty', '-m', 'second']);

    await h.engine.restartSwarm('lc', {});
    expect(fs.readFileSync(draft, 'utf8')).toBe('work\n');
    expect((await h.engine.agentGitChanges('lc', 'dev')).base).toBe(before.base);

    await h.engine.restartAgent('lc', 'dev');
    expect(fs.readFileSync(draft, 'utf8')).toBe('work\n');

    await h.engine.close(); // the server goes away with the swarm running: the next open recovers it
    h.engine = await h.open();
    expect(fs.readFileSync(draft, 'utf8')).toBe('work\n');
    const after = await h.engine.agentGitChanges('lc', 'dev');
    expect([after.base, after.files.map((f) => f.path)]).toEqual([before.base, ['draft.txt']]);

    await h.engine.stopSwarm('lc', {});
    expect(fs.existsSync(draft)).toBe(true);
    await h.engine.stopSwarm('lc', { purge: true });
    expect([fs.existsSync(ws), fs.existsSync(path.join(h.home, 'git', 'lc'))]).toEqual([false, false]);
  }, 60_000);
});
