import { agentDiff, readAgentWork } from '../../src/index';
import { AGENT, asAgent, cloneFor, makeGitWorld, SWARM } from './git-world';

const isRoot = process.getuid?.() === 0;
const d = isRoot ? describe : describe.skip;

d('git workspaces: the snapshot cache', () => {
  test('a file rewritten with the same size and its old mtime put back is read again (ctime moved)', async () => {
    const w = makeGitWorld();
    try {
      await cloneFor(w);
      asAgent(w.workspace, ['/bin/sh', '-c', 'printf "aaaa\\n" > f.txt && touch -d "2001-01-01 00:00:00" f.txt']);
      await new Promise((r) => setTimeout(r, 2200)); // past the racy window: the next read caches f.txt
      const read = async (): Promise<string> =>
        (await agentDiff((await readAgentWork({ home: w.home, swarm: SWARM, agent: AGENT, workspace: w.workspace }))!)).text;
      expect(await read()).toContain('+aaaa');
      asAgent(w.workspace, ['/bin/sh', '-c', 'printf "bbbb\\n" > f.txt && touch -d "2001-01-01 00:00:00" f.txt']);
      const second = await read();
      expect(second).toContain('+bbbb');
      expect(second).not.toContain('+aaaa');
    } finally {
      w.cleanup();
    }
  }, 30_000);
});
