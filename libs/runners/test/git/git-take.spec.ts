import { readAgentWork, takeAgentWork } from '../../src/index';
import { AGENT, asAgent, cloneFor, git, makeGitWorld, operatorFingerprint, SWARM } from './git-world';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;

d('git workspaces: taking the work', () => {
  test('a fetch onto the branch the operator has checked out is refused and changes nothing', async () => {
    const w = makeGitWorld();
    try {
      await cloneFor(w);
      asAgent(w.workspace, ['/bin/sh', '-c', 'echo more >> lib.txt && git -c user.name=a -c user.email=a@x commit -qam more']);
      const work = (await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace }))!;
      await takeAgentWork(work, { includeUncommitted: false });
      git(w.repo, ['checkout', '-q', `genswarms/${SWARM}/${AGENT}`]);
      const before = operatorFingerprint(w.repo);
      asAgent(w.workspace, ['/bin/sh', '-c', 'echo again >> lib.txt && git -c user.name=a -c user.email=a@x commit -qam again']);
      const next = (await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace }))!;
      await expect(takeAgentWork(next, { includeUncommitted: false })).rejects.toMatchObject({ code: 'git_failed' });
      expect(operatorFingerprint(w.repo)).toEqual(before);
      expect(git(w.repo, ['rev-parse', 'HEAD']).trim()).toBe(work.branchHead);
    } finally {
      w.cleanup();
    }
  });
});
