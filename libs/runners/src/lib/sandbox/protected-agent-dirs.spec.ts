import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { assertSafeHostPath } from './mount-safety';

// The protected directories of other agents were realpath'ed on every plan and start (O(N²) at
// launch). Host-created agent dirs `<home>/{workspaces,state}/<swarm>/<agent>` are compared as they are;
// any other protected path (a named workspace) is still resolved, so a link to it is still caught.
describe('protected agent directories', () => {
  let root: string;
  let home: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gs-protected-')));
    home = path.join(root, 'home');
    mkdirSync(home);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const ctxWith = (protectedPaths: string[]): RunnerContext => ({ home, protectedPaths: () => protectedPaths }) as unknown as RunnerContext;
  const who = (): { swarm: string; agent: string; workspace: string } => ({
    swarm: 's',
    agent: 'a',
    workspace: path.join(home, 'workspaces', 's', 'a'),
  });

  it('refuses a skill inside a named workspace of another agent, reached through a link', () => {
    const named = path.join(root, 'named-ws');
    mkdirSync(path.join(named, 'skill'), { recursive: true });
    const link = path.join(root, 'link-to-named');
    symlinkSync(named, link);
    expect(() => assertSafeHostPath(path.join(named, 'skill'), 'skill', who(), ctxWith([link]))).toThrow(/another agent/);
  });

  it('accepts a skill outside every protected directory, with a thousand host agent dirs protected', () => {
    const skill = path.join(root, 'skills', 'one');
    mkdirSync(skill, { recursive: true });
    const dirs = Array.from({ length: 1000 }, (_, i) => [
      path.join(home, 'workspaces', 's', `b${i}`),
      path.join(home, 'state', 's', `b${i}`),
    ]).flat();
    expect(assertSafeHostPath(skill, 'skill', who(), ctxWith(dirs))).toBe(skill);
  });

  it.each([
    ['workspaces/s/b', true],
    ['state/s/b', true],
    ['workspaces/s', false],
    ['workspaces/s/b/sub', false],
    ['other/s/b', false],
  ])('still refuses an operator path equal to protected %s (host agent dir: %s)', (rel) => {
    const dir = path.join(root, 'outside-home-target');
    mkdirSync(dir, { recursive: true });
    expect(() => assertSafeHostPath(dir, 'skill', who(), ctxWith([dir, path.join(home, rel)]))).toThrow(/another agent/);
  });
});
