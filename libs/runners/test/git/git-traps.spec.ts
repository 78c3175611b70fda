import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { agentDiff, listAgentChanges, readAgentWork, takeAgentWork } from '../../src/index';
import { AGENT, asAgent, cloneFor, git, makeGitWorld, operatorFingerprint, SWARM, type GitWorld } from './git-world';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;

/** Every way a repository's own files could make a git on the host run something (each touches its marker). */
function plantTraps(ws: string, markers: string): void {
  const trap = (name: string): string => {
    const file = path.join(ws, `.trap-${name}`);
    writeFileSync(file, `#!/bin/sh\ntouch '${path.join(markers, name)}'\ncat\n`, { mode: 0o755 });
    return file;
  };
  const hooks = path.join(ws, '.git', 'hooks');
  mkdirSync(hooks, { recursive: true });
  mkdirSync(path.join(ws, '.git', 'info'), { recursive: true });
  for (const h of [
    'pre-commit',
    'post-checkout',
    'reference-transaction',
    'post-index-change',
    'pre-push',
    'post-update',
    'pre-receive',
    'update',
    'pre-auto-gc',
    'fsmonitor-watchman',
    'post-merge',
  ]) {
    writeFileSync(path.join(hooks, h), `#!/bin/sh\ntouch '${path.join(markers, `hook-${h}`)}'\n`, { mode: 0o755 });
  }
  const alt = path.join(ws, '.althooks');
  mkdirSync(alt);
  writeFileSync(path.join(alt, 'reference-transaction'), `#!/bin/sh\ntouch '${path.join(markers, 'hookspath')}'\n`, { mode: 0o755 });
  const config: [string, string][] = [
    ['core.fsmonitor', trap('fsmonitor')],
    ['core.hooksPath', alt],
    ['core.pager', trap('pager')],
    ['core.editor', trap('editor')],
    ['core.sshCommand', trap('ssh')],
    ['core.askPass', trap('askpass')],
    ['core.alternateRefsCommand', trap('altrefs')],
    ['diff.external', trap('diff-external')],
    ['diff.evil.textconv', trap('textconv')],
    ['diff.evil.command', trap('diff-command')],
    ['filter.evil.clean', trap('clean')],
    ['filter.evil.smudge', trap('smudge')],
    ['filter.evil.process', trap('process')],
    ['filter.evil.required', 'true'],
    ['uploadpack.packObjectsHook', trap('pack-objects-hook')],
    ['credential.helper', `!${trap('credential')}`],
    ['include.path', path.join(ws, '.included')],
  ];
  for (const [k, v] of config) asAgent(ws, ['/usr/bin/git', 'config', k, v]);
  writeFileSync(path.join(ws, '.included'), `[core]\n\tfsmonitor = ${trap('included')}\n[diff]\n\texternal = ${trap('included-diff')}\n`);
  writeFileSync(path.join(ws, '.gitattributes'), '* diff=evil filter=evil merge=evil\n');
  writeFileSync(path.join(ws, '.git', 'info', 'attributes'), '* diff=evil filter=evil\n');
  writeFileSync(path.join(ws, '.git', 'objects', 'info', 'alternates'), '/root\n');
  symlinkSync('/etc/shadow', path.join(ws, 'leak'));
  spawnSync('/usr/bin/mkfifo', [path.join(ws, 'fifo')]);
  spawnSync('/usr/bin/chown', ['-R', '--no-dereference', '65532:65532', ...readdirSync(ws).map((n) => path.join(ws, n))]);
}

d('git workspaces: what a hostile agent plants in its clone never runs on the host', () => {
  let w: GitWorld;
  let markers: string;
  beforeAll(async () => {
    w = makeGitWorld();
    markers = path.join(w.root, 'markers');
    mkdirSync(markers);
    chmodSync(markers, 0o1777);
    await cloneFor(w);
    const ws = w.workspace;
    asAgent(ws, ['/bin/sh', '-c', 'printf "one\\nTWO\\nthree\\n" > lib.txt && printf "new\\n" > new.txt']);
    asAgent(ws, ['/usr/bin/git', 'add', '-A']);
    asAgent(ws, ['/usr/bin/git', 'commit', '-qm', 'agent work']);
    asAgent(ws, ['/bin/sh', '-c', 'printf "draft\\n" > draft.txt']);
    plantTraps(ws, markers);
  });
  afterAll(() => w.cleanup());

  test('changes list the committed and the uncommitted work, and nothing planted ran', async () => {
    const work = await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace });
    expect(work).toBeDefined();
    const changes = await listAgentChanges(work!);
    expect(changes.commits.map((c) => c.subject)).toEqual(['agent work']);
    expect(changes.uncommitted).toBe(true);
    const byPath = Object.fromEntries(changes.files.map((f) => [f.path, f]));
    expect(byPath['lib.txt']).toEqual({ path: 'lib.txt', status: 'modified', additions: 2, deletions: 1 });
    expect(byPath['new.txt']?.status).toBe('added');
    expect(byPath['draft.txt']?.status).toBe('added');
    expect(byPath['leak']?.status).toBe('added'); // the link itself, never /etc/shadow's content
    expect(byPath['fifo']).toBeUndefined();
    const diff = await agentDiff(work!);
    expect(diff.text).toContain('+TWO');
    expect(diff.text).toContain('+draft');
    expect(diff.text).not.toMatch(/root:/);
    expect((await agentDiff(work!, { stat: true })).text).toContain('lib.txt');
    expect(readdirSync(markers)).toEqual([]);
  });

  test.each([
    ['the branch head', false],
    ['the snapshot of the working tree', true],
  ])('fetch takes %s into exactly the branch of the operator repository', async (_what, includeUncommitted) => {
    const before = operatorFingerprint(w.repo);
    const refsBefore = git(w.repo, ['for-each-ref', '--format=%(refname)']).split('\n').filter(Boolean);
    const work = await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace });
    const taken = await takeAgentWork(work!, { includeUncommitted });
    expect(taken.branch).toBe(`genswarms/${SWARM}/${AGENT}`);
    const refsAfter = git(w.repo, ['for-each-ref', '--format=%(refname)']).split('\n').filter(Boolean);
    expect(refsAfter.filter((r) => !refsBefore.includes(r))).toEqual(
      refsBefore.includes(`refs/heads/${taken.branch}`) ? [] : [`refs/heads/${taken.branch}`],
    );
    expect(git(w.repo, ['rev-parse', `refs/heads/${taken.branch}`]).trim()).toBe(taken.commit);
    const files = git(w.repo, ['ls-tree', '-r', '--name-only', taken.branch]).split('\n');
    expect(files.includes('draft.txt')).toBe(includeUncommitted);
    expect(files).toContain('new.txt');
    expect(operatorFingerprint(w.repo)).toEqual(before);
    expect(readdirSync(markers)).toEqual([]);
  });
});

d('git workspaces: the traps of the spec above are real', () => {
  test('a naive git in the planted clone runs them (the control that makes the spec above mean something)', async () => {
    const w = makeGitWorld();
    try {
      const markers = path.join(w.root, 'markers');
      mkdirSync(markers);
      chmodSync(markers, 0o1777);
      await cloneFor(w);
      asAgent(w.workspace, ['/bin/sh', '-c', 'printf "x\\n" >> lib.txt']);
      plantTraps(w.workspace, markers);
      spawnSync('/usr/bin/git', ['-c', 'safe.directory=*', 'diff', 'HEAD'], {
        cwd: w.workspace,
        env: { PATH: '/usr/bin:/bin', HOME: w.root },
      });
      expect(readdirSync(markers).length).toBeGreaterThan(0);
    } finally {
      w.cleanup();
    }
  });
});
