import type { HostReadings } from '@genswarms/runners';
import { checkAgentsThatFit, checkCgroupLayout, checkHostLimitLines } from '../src/doctor/scale-limits';

/** The development host: pid_max 32768, ulimit -n 20000, cgroup v1 plus an empty v2 mount, root (no RLIMIT_NPROC). */
const HOST: HostReadings = {
  pidMax: { limit: 32768, used: 1500 },
  threadsMax: { limit: 192739, used: 1500 },
  nproc: undefined,
  cgroupPids: undefined,
  nofile: { limit: 20000, used: 20 },
  inotifyWatches: { limit: 192546, used: 0 },
  inotifyInstances: { limit: 128, used: 1 },
  ptys: { limit: 4096, used: 3 },
  cgroups: { kind: 'v1', controllers: ['freezer', 'pids'], v2Controllers: [] },
  cgroupCount: undefined,
};

const line = (readings: HostReadings, name: string): { status: string; detail: string } | undefined =>
  checkHostLimitLines(readings).find((c) => c.name === name);

test('prints each limit, its use and the agents of each runner that fit', () => {
  expect(line(HOST, 'kernel.pid_max')).toEqual({
    name: 'kernel.pid_max',
    status: 'ok',
    detail:
      '32,768 (1,500 in use, 512 kept free): fits bwrap 10,252, local 15,378, tmux 10,252, tmux-bwrap 7,689, docker 2,196, tmux-docker 2,196',
  });
  expect(line(HOST, 'kernel.pty.max')?.detail).toBe('4,096 (3 in use, 16 kept free): fits tmux 4,077, tmux-bwrap 4,077, tmux-docker 2,038');
});

test.each<[string, Partial<HostReadings>, string, string, RegExp]>([
  [
    'ulimit -n 1024',
    { nofile: { limit: 1024, used: 20 } },
    'RLIMIT_NOFILE',
    'problem',
    /fits bwrap 748, local 748,.*below 1,000 bwrap agents: ulimit -n 1276 /,
  ],
  ['ulimit -n unlimited', { nofile: { limit: undefined, used: 20 } }, 'RLIMIT_NOFILE', 'ok', /^unlimited \(20 in use\)$/],
  [
    'a 2,000 pids.max',
    { cgroupPids: { limit: 2000, used: 100, cgroup: '/sys/fs/cgroup/pids/x' } },
    'pids.max',
    'problem',
    /echo \d+ > \/sys\/fs\/cgroup\/pids\/x\/pids.max/,
  ],
  ['max_user_watches 8192', { inotifyWatches: { limit: 8192, used: 10 } }, 'fs.inotify.max_user_watches', 'ok', /fits bwrap 4,059/],
])('judges %s', (_what, over, name, status, detail) => {
  const c = line({ ...HOST, ...over }, name);
  expect(c?.status).toBe(status);
  expect(c?.detail).toMatch(detail);
});

test('names the tightest limit per runner', () => {
  expect(checkAgentsThatFit(HOST).detail).toBe(
    'bwrap 10,252 (kernel.pid_max), local 15,378 (kernel.pid_max), tmux 4,077 (kernel.pty.max), tmux-bwrap 4,077 (kernel.pty.max), docker 2,196 (kernel.pid_max), tmux-docker 2,038 (kernel.pty.max); a start past them is refused (host_limit)',
  );
});

test.each<[string, HostReadings['cgroups'], string]>([
  [
    'a hybrid host',
    HOST.cgroups,
    'cgroup v1 (freezer, pids) plus a cgroup2 mount with no controller (hybrid: the v1 pids hierarchy is read)',
  ],
  [
    'a hybrid host with hugetlb on v2',
    { kind: 'v1', controllers: ['pids'], v2Controllers: ['hugetlb'] },
    'cgroup v1 (pids) plus a cgroup2 mount with hugetlb (hybrid: the v1 pids hierarchy is read)',
  ],
  ['a v2 host', { kind: 'v2', controllers: ['cpu', 'pids'] }, 'cgroup v2 (controllers: cpu pids)'],
  ['no cgroups', { kind: 'none' }, 'no cgroup hierarchy mounted'],
])('describes %s', (_what, cgroups, text) => {
  expect(checkCgroupLayout({ ...HOST, cgroups }).detail).toBe(`${text}; fs.inotify.max_user_instances 128 (the server holds 1)`);
});
