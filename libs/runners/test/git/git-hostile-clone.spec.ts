import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { deflateSync } from 'node:zlib';
import { listAgentChanges, readAgentWork } from '../../src/index';
import { AGENT, asAgent, cloneFor, git, makeGitWorld, SWARM, type GitWorld } from './git-world';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;
const BRANCH = path.join('.git', 'refs', 'heads', 'genswarms', SWARM, AGENT);

/** What an agent may do to its clone's internals; each ends in a known answer, never a read outside it or a hang. */
const CASES: [string, (w: GitWorld) => void, 'base' | 'git_failed'][] = [
  [
    'its branch names a valid object whose file is not its own (another repository’s, hard-linked)',
    (w) => {
      const other = path.join(w.root, 'other');
      mkdirSync(other);
      git(other, ['init', '-q']);
      git(other, ['commit', '-q', '--allow-empty', '-m', 'private']);
      const sha = git(other, ['rev-parse', 'HEAD']).trim();
      mkdirSync(path.join(w.workspace, '.git', 'objects', sha.slice(0, 2)), { recursive: true });
      copyFileSync(
        path.join(other, '.git', 'objects', sha.slice(0, 2), sha.slice(2)),
        path.join(w.workspace, '.git', 'objects', sha.slice(0, 2), sha.slice(2)),
      );
      writeFileSync(path.join(w.workspace, BRANCH), `${sha}\n`);
    },
    'git_failed',
  ],
  [
    'its branch is a link to the operator repository ref',
    (w) => {
      rmSync(path.join(w.workspace, BRANCH));
      symlinkSync(path.join(w.repo, '.git', 'refs', 'heads', 'main'), path.join(w.workspace, BRANCH));
    },
    'base',
  ],
  [
    'its .git is a link to the operator repository',
    (w) => {
      rmSync(path.join(w.workspace, '.git'), { recursive: true });
      symlinkSync(path.join(w.repo, '.git'), path.join(w.workspace, '.git'));
    },
    'base',
  ],
  [
    'its .git is a gitfile pointing elsewhere',
    (w) => {
      rmSync(path.join(w.workspace, '.git'), { recursive: true });
      writeFileSync(path.join(w.workspace, '.git'), `gitdir: ${path.join(w.repo, '.git')}\n`);
    },
    'base',
  ],
  ['its branch holds garbage', (w) => writeFileSync(path.join(w.workspace, BRANCH), '$(touch /tmp/x)\n'), 'git_failed'],
  [
    'its branch names an object whose file does not hash to its name',
    (w) => {
      const sha = 'ab'.repeat(20);
      mkdirSync(path.join(w.workspace, '.git', 'objects', 'ab'), { recursive: true });
      writeFileSync(path.join(w.workspace, '.git', 'objects', 'ab', sha.slice(2)), deflateSync(Buffer.from('commit 3\0abc')));
      writeFileSync(path.join(w.workspace, BRANCH), `${sha}\n`);
    },
    'git_failed',
  ],
  [
    'its pack is a FIFO and its objects dir holds a link',
    (w) => {
      const pack = path.join(w.workspace, '.git', 'objects', 'pack');
      mkdirSync(pack, { recursive: true });
      spawnSync('/usr/bin/mkfifo', [path.join(pack, `pack-${'cd'.repeat(20)}.pack`)]);
      symlinkSync('/root', path.join(w.workspace, '.git', 'objects', 'ee'));
    },
    'base',
  ],
  [
    'its objects directory is a link to the operator objects',
    (w) => {
      renameSync(path.join(w.workspace, '.git', 'objects'), path.join(w.workspace, 'objects-moved'));
      symlinkSync(path.join(w.repo, '.git', 'objects'), path.join(w.workspace, '.git', 'objects'));
    },
    'base',
  ],
];

d('git workspaces: a hostile clone', () => {
  test.each(CASES)('%s', async (_what, plant, expected) => {
    const w = makeGitWorld();
    try {
      const record = await cloneFor(w);
      plant(w); // as root: what the agent could only plant as a hard link (where the kernel allows one)
      asAgent(w.workspace, ['/bin/true']);
      const read = readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace });
      if (expected === 'git_failed') {
        await expect(read).rejects.toMatchObject({ code: 'git_failed' });
        return;
      }
      const work = (await read)!;
      expect(work.branchHead).toBe(record.base);
      expect((await listAgentChanges(work)).commits).toEqual([]);
    } finally {
      w.cleanup();
    }
  });
});
