import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { agentDiff, ensureGitClone, gitSwarmDir, hasGitRecord, listAgentChanges, planGitSource, readAgentWork } from '../../src/index';
import { AGENT, cloneFor, makeGitWorld, SWARM } from './git-world';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;

function filesBelow(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : [],
  );
}

d('git workspaces: the clone', () => {
  test('hasGitRecord: true once the clone is recorded, false for an agent without one and for a home without git', async () => {
    const w = makeGitWorld();
    try {
      expect(hasGitRecord(w.home, SWARM, AGENT)).toBe(false); // no <home>/git at all
      await cloneFor(w);
      const rows: ReadonlyArray<readonly [string, string, boolean]> = [
        [SWARM, AGENT, true],
        [SWARM, 'a2', false],
        ['s2', AGENT, false],
      ];
      expect(rows.map(([swarm, agent]) => [swarm, agent, hasGitRecord(w.home, swarm, agent)])).toEqual(rows);
      // whatever the record holds, it is there: readAgentWork is what tells an invalid one
      writeFileSync(path.join(gitSwarmDir(w.home, SWARM), 'a3.json'), 'not json');
      expect(hasGitRecord(w.home, SWARM, 'a3')).toBe(true);
    } finally {
      w.cleanup();
    }
  });

  test('shares the base objects read-only (the server owns them, the agent cannot write them) and has no alternates or remote', async () => {
    const w = makeGitWorld();
    try {
      await cloneFor(w);
      await cloneFor(w, 'a2');
      const objects = filesBelow(path.join(w.workspace, '.git', 'objects'));
      expect(objects.length).toBeGreaterThan(0);
      for (const f of objects) {
        const st = statSync(f);
        expect([st.uid, st.mode & 0o777, st.nlink > 1]).toEqual([0, 0o444, true]);
        const write = spawnSync('/usr/bin/setpriv', [
          '--reuid=65532',
          '--regid=65532',
          '--clear-groups',
          '--',
          '/bin/sh',
          '-c',
          `echo x >> '${f}'`,
        ]);
        expect(write.status).not.toBe(0);
      }
      expect(() => lstatSync(path.join(w.workspace, '.git', 'objects', 'info', 'alternates'))).toThrow();
      expect(readFileSync(path.join(w.workspace, '.git', 'config'), 'utf8')).not.toMatch(/remote|url|alternate/);
      expect(statSync(path.join(w.workspace, '.git', 'index')).uid).toBe(65532);
      expect(statSync(path.join(w.workspace, 'README.md')).uid).toBe(65532);
    } finally {
      w.cleanup();
    }
  });

  test('a workspace that already holds the clone is reused untouched (restart, recovery)', async () => {
    const w = makeGitWorld();
    try {
      const first = await cloneFor(w);
      const head = readFileSync(path.join(w.workspace, '.git', 'HEAD'), 'utf8');
      const source = await planGitSource({ git: w.repo }, AGENT, w.ctx);
      const again = await ensureGitClone({
        home: w.home,
        swarm: SWARM,
        agent: AGENT,
        source,
        workspace: w.workspace,
        serverUid: 0,
        owner: { uid: 65532, gid: 65532 },
      });
      expect(again).toEqual(first);
      expect(readFileSync(path.join(w.workspace, '.git', 'HEAD'), 'utf8')).toBe(head);
    } finally {
      w.cleanup();
    }
  });
});

d('git workspaces: what the host never does in a workspace handed to the agent', () => {
  test('a clone the agent deleted is not made anew there (unsafe_workspace; purge starts afresh)', async () => {
    const w = makeGitWorld();
    try {
      await cloneFor(w);
      rmSync(path.join(w.workspace, '.git'), { recursive: true });
      for (const n of readdirSync(w.workspace)) rmSync(path.join(w.workspace, n), { recursive: true });
      const source = await planGitSource({ git: w.repo }, AGENT, w.ctx);
      const again = ensureGitClone({
        home: w.home,
        swarm: SWARM,
        agent: AGENT,
        source,
        workspace: w.workspace,
        serverUid: 0,
        owner: { uid: 65532, gid: 65532 },
      });
      await expect(again).rejects.toMatchObject({ code: 'unsafe_workspace' });
      expect(readdirSync(w.workspace)).toEqual([]);
    } finally {
      w.cleanup();
    }
  });

  test('a file in the working tree that is not the agent’s (a hard link to a root file) is never read', async () => {
    const w = makeGitWorld();
    try {
      await cloneFor(w);
      writeFileSync(path.join(w.workspace, 'secret.txt'), 'TOPSECRET\n', { mode: 0o600 }); // root's, as a hard link would be
      const work = (await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace }))!;
      expect((await listAgentChanges(work)).files.map((f) => f.path)).not.toContain('secret.txt');
      expect((await agentDiff(work)).text).not.toContain('TOPSECRET');
      expect(work.skipped).toBeGreaterThan(0);
    } finally {
      w.cleanup();
    }
  });
});
