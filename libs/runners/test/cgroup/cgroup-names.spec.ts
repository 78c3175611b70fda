/** Cgroup paths are built from validated Names only: a hostile swarm or agent name never becomes a path. */
import * as path from 'node:path';
import { agentCgroupFor, homeCgroupDir } from '../../src/lib/cgroup/agent-cgroup';
import type { ProcessTracking } from '../../src/lib/cgroup/cgroup-detect';

const V1: ProcessTracking = { kind: 'cgroup1', root: '/sys/fs/cgroup/freezer', controller: 'freezer' };
const V2: ProcessTracking = { kind: 'cgroup2', root: '/sys/fs/cgroup/user.slice/genswarms.service', controllers: ['pids'] };
const HOME = '/srv/genswarms-home';

const HOSTILE: readonly string[] = [
  '',
  '.',
  '..',
  '../x',
  'a/b',
  '/abs',
  'a\0b',
  'new\nline',
  '-leading',
  '1digit',
  'sp ace',
  '*',
  'x'.repeat(65),
  'ünï',
  'a:b',
  'cgroup.procs/..',
];

describe('agent cgroup names', () => {
  it.each(HOSTILE)('refuses the swarm name %j (validation_failed), whatever the tracking', (name) => {
    for (const t of [V1, V2, { kind: 'none', reason: 'x' } as const, undefined]) {
      expect(() => agentCgroupFor(t, HOME, 'local', name, 'agent')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });

  it.each(HOSTILE)('refuses the agent name %j (validation_failed)', (name) => {
    expect(() => agentCgroupFor(V1, HOME, 'tmux', 'swarm', name)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  it.each(['__proto__', 'constructor', 'toString', 'docker', '../local'])('refuses the owner %j', (owner) => {
    expect(() => agentCgroupFor(V1, HOME, owner as 'local', 'swarm', 'agent')).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
  });

  it.each([
    [V1, 'local'],
    [V2, 'tmux'],
  ] as const)('places a valid agent at <root>/genswarms/<home-id>/<owner>/<swarm>/<agent> (%j)', (t, owner) => {
    const group = agentCgroupFor(t, HOME, owner, 'Swarm_1', 'agent-2');
    const base = homeCgroupDir(t as Exclude<ProcessTracking, { kind: 'none' }>, HOME);
    expect(base).toMatch(new RegExp(`^${t.root}/genswarms/[0-9a-f]{16}$`));
    expect(group).toEqual({
      tracking: t,
      dir: path.join(base, owner, 'Swarm_1', 'agent-2'),
      procsFile: path.join(base, owner, 'Swarm_1', 'agent-2', 'cgroup.procs'),
    });
  });

  it('gives two homes different subtrees, and none for `none` tracking', () => {
    const a = agentCgroupFor(V1, '/home/a', 'local', 's', 'a');
    const b = agentCgroupFor(V1, '/home/b', 'local', 's', 'a');
    expect(a?.dir).not.toBe(b?.dir);
    expect(agentCgroupFor({ kind: 'none', reason: 'x' }, HOME, 'local', 's', 'a')).toBeUndefined();
    expect(agentCgroupFor(undefined, HOME, 'local', 's', 'a')).toBeUndefined();
  });
});
