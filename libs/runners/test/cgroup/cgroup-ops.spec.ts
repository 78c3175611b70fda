/**
 * The cgroup module on this host's real hierarchy: the constant join helper refuses hostile paths and
 * fails closed, a kill empties a group whose members keep forking, leftovers are killed at prepare, and
 * only empty groups are swept. Skipped, loudly, where tracking is `none`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { agentCgroupFor, homeCgroupDir, type AgentCgroup, type CgroupTracking } from '../../src/lib/cgroup/agent-cgroup';
import { detectProcessTracking } from '../../src/lib/cgroup/cgroup-detect';
import { killAgentCgroup, prepareAgentCgroup, readCgroupPids, sweepEmptyCgroups } from '../../src/lib/cgroup/cgroup-ops';
import { CGROUP_EXEC_EXIT_JOIN, CGROUP_EXEC_PATH } from '../../src/lib/launcher/launcher';
import { makeSandboxDirs } from '../support';
import { killLeftSleeps, liveSleeps, uniqueSleepArg } from '../escape/escape-support';
import { waitFor } from '@genswarms/test-kit';

const tracking = detectProcessTracking();
/** The /proc/self/cgroup prefix of the tracking hierarchy (`0::` on v2, `<n>:<controller>:` on v1). */
function cgroupLine(t: CgroupTracking): string {
  if (t.kind === 'cgroup2') return '0::';
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((l) => l.split(':')[1]?.split(',').includes(t.controller));
  return `${line?.split(':')[0] ?? '?'}:${line?.split(':')[1] ?? '?'}:`;
}
if (tracking.kind === 'none') console.warn(`SKIPPING cgroup ops specs: ${tracking.reason}`);
const describeTracked = tracking.kind === 'none' ? describe.skip : describe;

describe('genswarms-cgroup-exec refuses what is not a cgroup.procs path (exit 96), before running anything', () => {
  const dirs = makeSandboxDirs('gs-cgexec-');
  afterAll(() => dirs.cleanup());
  it.each([
    ['no command', ['/sys/fs/cgroup/x/cgroup.procs']],
    ['relative path', ['x/cgroup.procs', '/usr/bin/touch']],
    ['another file', ['/tmp/not-procs', '/usr/bin/touch']],
    ['dot-dot component', ['/sys/fs/cgroup/freezer/../../tmp/cgroup.procs', '/usr/bin/touch']],
    ['dot component', ['/sys/fs/cgroup/./x/cgroup.procs', '/usr/bin/touch']],
  ])('%s', (_name, args) => {
    const marker = path.join(dirs.root, `ran-${_name.replace(/\W/g, '')}`);
    const r = spawnSync(CGROUP_EXEC_PATH, [...args, ...(args.length > 1 ? [marker] : [])], { shell: false, encoding: 'utf8' });
    expect(r.status).toBe(96);
    expect(existsSync(marker)).toBe(false);
  });
});

describeTracked('agent cgroups on this host', () => {
  const dirs = makeSandboxDirs('gs-cgops-');
  const t = tracking as CgroupTracking;
  const uniques: string[] = [];
  const groups: AgentCgroup[] = [];
  afterAll(async () => {
    for (const g of groups) await killAgentCgroup(g);
    killLeftSleeps(uniques);
    dirs.cleanup();
  });
  const groupOf = (agent: string): AgentCgroup => {
    const g = agentCgroupFor(t, dirs.home, 'local', 'ops', agent) as AgentCgroup;
    groups.push(g);
    return g;
  };

  it(`fails closed (exit ${CGROUP_EXEC_EXIT_JOIN}) when the group does not exist: the command never runs`, () => {
    const marker = path.join(dirs.root, 'joined-nothing');
    const r = spawnSync(CGROUP_EXEC_PATH, [path.join(t.root, 'genswarms', 'no-such-home', 'cgroup.procs'), '/usr/bin/touch', marker], {
      shell: false,
    });
    expect(r.status).toBe(CGROUP_EXEC_EXIT_JOIN);
    expect(existsSync(marker)).toBe(false);
  });

  it('joins before exec, passes argv untouched, and adds no PWD to the environment', async () => {
    const g = groupOf('argv');
    await prepareAgentCgroup(g);
    const run = (argv: string[]): string =>
      spawnSync(CGROUP_EXEC_PATH, [g.procsFile, ...argv], { shell: false, encoding: 'utf8', env: { A: '1' }, cwd: dirs.root }).stdout;
    const tail = g.dir.slice(g.dir.indexOf('/genswarms/')); // v2 lines are relative to the cgroup namespace, not to the root
    expect(
      run(['/bin/cat', '/proc/self/cgroup'])
        .split('\n')
        .filter((l) => l.startsWith(cgroupLine(t)) && l.endsWith(tail)),
    ).toHaveLength(1);
    expect(
      JSON.parse(run([process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', 'a b', '', '$(x)', '--'])),
    ).toEqual(['a b', '', '$(x)', '--']);
    expect(run(['/usr/bin/env']).trim().split('\n')).toEqual(['A=1']);
  });

  it('kills a group whose members keep forking (setsid daemons and a fork loop), then removes it', async () => {
    const g = groupOf('forker');
    await prepareAgentCgroup(g);
    const u = uniqueSleepArg();
    uniques.push(u);
    const script = `for i in 1 2 3 4 5 6 7 8 9 10; do setsid sleep ${u} & done\nwhile :; do /bin/true; done`;
    const child = spawn(CGROUP_EXEC_PATH, [g.procsFile, '/bin/sh', '-c', script], { shell: false, stdio: 'ignore', detached: true });
    child.on('error', () => undefined); // reported through the assertions below
    await waitFor(() => liveSleeps(u).length === 10, 'ten sleeps in the group');
    expect((await readCgroupPids(g)).length).toBeGreaterThanOrEqual(11);
    await killAgentCgroup(g);
    expect(liveSleeps(u)).toEqual([]);
    expect(existsSync(g.dir)).toBe(false);
  });

  it('prepare kills what a previous instance left in the group, and leaves it joinable', async () => {
    const g = groupOf('leftover');
    await prepareAgentCgroup(g);
    const u = uniqueSleepArg();
    uniques.push(u);
    spawn(CGROUP_EXEC_PATH, [g.procsFile, '/usr/bin/setsid', '/bin/sleep', u], { shell: false, stdio: 'ignore' }).on(
      'error',
      () => undefined,
    );
    await waitFor(() => liveSleeps(u).length === 1, 'one sleep left');
    await prepareAgentCgroup(g);
    expect(liveSleeps(u)).toEqual([]);
    expect(await readCgroupPids(g)).toEqual([]);
    expect(spawnSync(CGROUP_EXEC_PATH, [g.procsFile, '/bin/true'], { shell: false }).status).toBe(0);
  });

  it('sweeps empty leftover groups of its own owner only; a group with a member stays', async () => {
    const base = homeCgroupDir(t, dirs.home);
    const empty = path.join(base, 'local', 'gone', 'a');
    const other = path.join(base, 'tmux', 'kept', 'a');
    mkdirSync(empty, { recursive: true });
    mkdirSync(other, { recursive: true });
    const busy = groupOf('busy');
    await prepareAgentCgroup(busy);
    const u = uniqueSleepArg();
    uniques.push(u);
    spawn(CGROUP_EXEC_PATH, [busy.procsFile, '/bin/sleep', u], { shell: false, stdio: 'ignore' }).on('error', () => undefined);
    await waitFor(() => readFileSync(busy.procsFile, 'utf8').trim() !== '', 'a pid in the busy group');
    await sweepEmptyCgroups(t, dirs.home, 'local');
    expect(existsSync(path.join(base, 'local', 'gone'))).toBe(false);
    expect(existsSync(busy.dir)).toBe(true);
    expect(existsSync(other)).toBe(true);
    await sweepEmptyCgroups(t, dirs.home, 'tmux');
    expect(existsSync(path.join(base, 'tmux', 'kept'))).toBe(false);
    // the owner's own directory stays: another runner of this home may be creating its first group below it
    expect(existsSync(path.join(base, 'tmux'))).toBe(true);
  });
});
