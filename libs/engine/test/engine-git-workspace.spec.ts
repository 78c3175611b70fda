/**
 * Git workspaces end to end (real engine, real local and bwrap runners, real git): an agent commits on its
 * clone, leaves an uncommitted file and plants every git trap it can in its clone; the host's changes, diff
 * and fetch show and take its work, the operator's repository gains exactly the branch, and no trap runs.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StoredEvent } from '../src/lib/store/store';
import { eventsOf, makeHarness, waitFor, type Harness } from './harness';

const isRoot = process.getuid?.() === 0;
const hasBwrap = fs.existsSync('/usr/bin/bwrap');
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

/** The agent: work, commit, leave a draft, then plant every trap (each would touch a marker on the host). */
function agentScript(markers: string): string {
  const t = (name: string): string => `touch ${markers}/${name}; cat`;
  const config: [string, string][] = [
    ['core.fsmonitor', t('fsmonitor')],
    ['core.hooksPath', '.althooks'],
    ['core.pager', t('pager')],
    ['core.editor', t('editor')],
    ['core.sshCommand', t('ssh')],
    ['core.askPass', t('askpass')],
    ['core.alternateRefsCommand', t('altrefs')],
    ['diff.external', t('diff-external')],
    ['diff.evil.textconv', t('textconv')],
    ['filter.evil.clean', t('clean')],
    ['filter.evil.smudge', t('smudge')],
    ['filter.evil.process', t('process')],
    ['uploadpack.packObjectsHook', t('pack-objects-hook')],
    ['include.path', '../.included'],
  ];
  const hooks = [
    'pre-commit',
    'post-checkout',
    'reference-transaction',
    'post-index-change',
    'pre-push',
    'post-update',
    'pre-receive',
    'update',
    'pre-auto-gc',
    'post-merge',
  ];
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    'set -ex',
    'G="git -c user.name=agent -c user.email=agent@example.com"',
    'printf "one\\nTWO\\nthree\\n" > lib.txt',
    'printf "new\\n" > new.txt',
    '$G add lib.txt new.txt',
    '$G commit -qm "agent work"',
    'printf "draft\\n" > draft.txt',
    'printf "x\\n" > "$(printf "evil\\nname")"',
    'printf "x\\n" > ./-rf',
    'mkdir -p .git/hooks .althooks .git/info',
    ...hooks.map(
      (h) =>
        `printf '#!/bin/sh\\ntouch ${markers}/hook-${h}\\n' > .git/hooks/${h}; chmod +x .git/hooks/${h}; cp .git/hooks/${h} .althooks/`,
    ),
    ...config.map(([k, v]) => `git config ${k} ${q(v)}`),
    `printf '[core]\\n\\tfsmonitor = touch ${markers}/included\\n' > .included`,
    'printf "* diff=evil filter=evil\\n" > .gitattributes',
    'printf "* diff=evil filter=evil\\n" > .git/info/attributes',
    'printf "/root\\n" > .git/objects/info/alternates',
    'ln -s /etc/shadow leak',
    'mkfifo fifo',
    'mkdir -p .genswarms && touch .genswarms/planted',
    'exec sleep 100000',
  ].join('\n');
}

d('git workspaces (engine, local and bwrap agents)', () => {
  let h: Harness;
  let repo: string;
  let markers: string;
  beforeAll(async () => {
    h = await makeHarness();
    repo = path.join(h.named, 'repo');
    fs.mkdirSync(repo);
    git(repo, ['init', '-q', '--initial-branch=main']);
    fs.writeFileSync(path.join(repo, 'lib.txt'), 'one\ntwo\n');
    git(repo, ['add', '.']);
    git(repo, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-qm', 'first']);
    markers = path.join(h.named, 'markers');
    fs.mkdirSync(markers, { mode: 0o700 });
  }, 60_000);
  afterAll(async () => {
    await h.cleanup();
  });

  const backends: [string, string][] = [['local', 'open'], ...(hasBwrap ? [['bwrap', 'none'] as [string, string]] : [])];
  test.each(backends)(
    'a %s agent: its work is shown and taken, nothing it planted runs',
    async (backend, network) => {
      const swarm = `g${backend}`;
      const before = {
        head: fs.readFileSync(path.join(repo, '.git', 'HEAD'), 'utf8'),
        config: fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8'),
      };
      const refsBefore = git(repo, ['for-each-ref', '--format=%(refname)']);
      await h.engine.startSwarm({
        config: {
          name: swarm,
          agents: [
            { name: 'dev', backend, network, workspace: { git: repo }, client: { command: ['/bin/sh', '-c', agentScript(markers)] } },
          ],
        },
      });
      const ws = path.join(h.home, 'workspaces', swarm, 'dev');
      await waitFor(async () => fs.existsSync(path.join(ws, '.genswarms', 'planted')), 'the agent planted its traps', {
        timeoutMs: 30_000,
      }).catch(async (e: unknown) => {
        const logs = JSON.stringify(await h.engine.agentLogs(swarm, 'dev'));
        throw new Error(
          `${String(e)}: ${spawnSync('/bin/ls', ['-laR', ws], { encoding: 'utf8' }).stdout.slice(0, 3000)} ${logs.slice(0, 3000)}`,
        );
      });
      const changes = await h.engine.agentGitChanges(swarm, 'dev');
      expect(changes.commits.map((c) => c.subject)).toEqual(['agent work']);
      expect(changes.uncommitted).toBe(true);
      const paths = changes.files.map((f) => f.path).sort();
      expect(paths).toEqual(expect.arrayContaining(['lib.txt', 'new.txt', 'draft.txt', 'leak', '-rf', 'evil\\x0aname']));
      expect(paths).not.toContain('fifo');
      const diff = await h.engine.agentGitDiff(swarm, 'dev', {});
      expect(diff.diff).toContain('+TWO');
      expect(diff.diff).toContain('+draft');
      const fetched = await h.engine.fetchGitWork(swarm, {});
      expect(fetched.failed).toEqual([]);
      expect(fetched.fetched.map((f) => f.branch)).toEqual([`genswarms/${swarm}/dev`]);
      const refsAfter = git(repo, ['for-each-ref', '--format=%(refname)']);
      expect(refsAfter.split('\n').filter((r) => r !== '' && !refsBefore.includes(r))).toEqual([`refs/heads/genswarms/${swarm}/dev`]);
      expect(git(repo, ['ls-tree', '-r', '--name-only', `genswarms/${swarm}/dev`]).split('\n')).not.toContain('draft.txt');
      expect(fs.readFileSync(path.join(repo, '.git', 'HEAD'), 'utf8')).toBe(before.head);
      expect(fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8')).toBe(before.config);
      expect(git(repo, ['status', '--porcelain'])).toBe('');
      expect(fs.existsSync(path.join(repo, '.git', 'FETCH_HEAD'))).toBe(false);
      const all = await h.engine.fetchGitWork(swarm, { agents: ['dev'], includeUncommitted: true });
      expect(git(repo, ['ls-tree', '-r', '--name-only', all.fetched[0]!.commit]).split('\n')).toContain('draft.txt');
      expect(fs.readdirSync(markers)).toEqual([]);
      await h.engine.stopSwarm(swarm, {});
      expect(fs.existsSync(path.join(ws, '.git'))).toBe(true); // stop keeps the clone
      expect((await h.engine.agentGitChanges(swarm, 'dev')).commits).toHaveLength(1);
      await h.engine.stopSwarm(swarm, { purge: true });
      expect(fs.existsSync(ws)).toBe(false);
      expect(fs.existsSync(path.join(h.home, 'git', swarm))).toBe(false);
      expect(fs.readdirSync(markers)).toEqual([]);
    },
    120_000,
  );
});

describe('git_changes', () => {
  let h: Harness;
  afterEach(async () => {
    await h.cleanup();
  });

  test('a turn that left changes emits one git_changes event; a turn that changed nothing more emits none', async () => {
    h = await makeHarness();
    const repo = path.join(h.named, 'repo');
    fs.mkdirSync(repo);
    git(repo, ['init', '-q']);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, ['add', '.']);
    git(repo, ['-c', 'user.name=op', '-c', 'user.email=op@example.com', 'commit', '-qm', 'first']);
    await h.engine.startSwarm({
      config: { name: 'gc', agents: [{ name: 'm', backend: { type: 'mock', opts: { replies: ['done'] } }, workspace: { git: repo } }] },
    });
    fs.writeFileSync(path.join(h.home, 'workspaces', 'gc', 'm', 'a.txt'), 'a\nb\n');
    const gitEvents = async (): Promise<StoredEvent[]> => (await eventsOf(h.engine, 'gc')).filter((e) => e.event_type === 'git_changes');
    await h.engine.sendTask('gc', 'm', 'one');
    const first = await waitFor(async () => ((await gitEvents()).length > 0 ? await gitEvents() : undefined), 'git_changes');
    expect(first[0]!.metadata).toMatchObject({ files: 1, commits: 0, uncommitted: true, branch: 'genswarms/gc/m' });
    await new Promise((r) => setTimeout(r, 1100)); // the next read falls in another second (a clock-dated snapshot changed id)
    await h.engine.sendTask('gc', 'm', 'two');
    await waitFor(async () => (await eventsOf(h.engine, 'gc')).filter((e) => e.event_type === 'turn_completed').length >= 2, 'second turn');
    await new Promise((r) => setTimeout(r, 300));
    expect(await gitEvents()).toHaveLength(1);
  }, 60_000);
});
