import { AGENT_HOST_COST, hostCostRunnerOf } from './agent-host-cost';
import { agentsThatFit, checkHostCapacity, HOST_TASKS_RESERVE, limitLines, SERVER_FDS_RESERVE } from './host-capacity';
import { readHostLimits, SYSTEM_HOST_PROBE, type HostProbe } from './host-readings';

/** This development host: cgroup v1 controllers plus an empty cgroup2 mount at /sys/fs/cgroup/unified. */
const HYBRID_MOUNTINFO = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const V2_MOUNTINFO = '30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate';

const LIMITS = (nofile: string, nproc: string): string =>
  `Limit                     Soft Limit           Hard Limit           Units\nMax processes             ${nproc}                ${nproc}                processes\nMax open files            ${nofile}                1048576              files\n`;

/** A host of files; `fds` descriptors of which one is an inotify instance with `watches` watches. */
function probe(files: Record<string, string>, opts: { fds?: number; watches?: number; euid?: number } = {}): HostProbe {
  const fds = Array.from({ length: opts.fds ?? 10 }, (_, i) => String(i));
  const fdinfo = Array.from({ length: opts.watches ?? 0 }, (_, i) => `inotify wd:${i + 1} ino:1 sdev:1 mask:1`).join('\n');
  const all = new Map<string, string>(Object.entries({ '/proc/self/fdinfo/3': fdinfo, ...files }));
  return {
    readFile: (f) => all.get(f),
    listDir: (d) => (d === '/proc/self/fd' ? fds : d === '/proc' ? ['1', '2', 'self'] : []),
    readLink: (f) => (f === '/proc/self/fd/3' ? 'anon_inode:inotify' : 'pipe:[1]'),
    euid: opts.euid ?? 0,
    uid: opts.euid ?? 0,
    procSelf: '/proc/self',
  };
}

const BASE: Record<string, string> = {
  '/proc/loadavg': '4.47 3.71 3.03 5/1200 56789\n',
  '/proc/sys/kernel/pid_max': '32768\n',
  '/proc/sys/kernel/threads-max': '192739\n',
  '/proc/sys/fs/inotify/max_user_watches': '192546\n',
  '/proc/sys/fs/inotify/max_user_instances': '128\n',
  '/proc/sys/kernel/pty/max': '4096\n',
  '/proc/sys/kernel/pty/nr': '3\n',
  '/proc/self/limits': LIMITS('20000', '96369'),
  '/proc/self/mountinfo': HYBRID_MOUNTINFO,
  '/proc/self/cgroup': '8:pids:/\n6:freezer:/\n0::/\n',
  '/sys/fs/cgroup/unified/cgroup.controllers': '\n',
};

const bwrap = (n: number): Array<{ backend: 'bwrap' }> => Array.from({ length: n }, () => ({ backend: 'bwrap' as const }));

describe('host readings', () => {
  test.each([
    ['an empty', '\n', []],
    ['a hugetlb-only', 'hugetlb\n', ['hugetlb']],
  ])('detects cgroup v1 controllers beside %s cgroup2 mount (hybrid), not v2', (_what, controllers, v2Controllers) => {
    const files = { ...BASE, '/sys/fs/cgroup/unified/cgroup.controllers': controllers };
    expect(readHostLimits(probe(files)).cgroups).toEqual({ kind: 'v1', controllers: ['freezer', 'pids'], v2Controllers });
  });

  test('detects a pure v2 host, its pids.max (tightest ancestor) and its descendant cap', () => {
    const r = readHostLimits(
      probe({
        ...BASE,
        '/proc/self/mountinfo': V2_MOUNTINFO,
        '/proc/self/cgroup': '0::/svc/gs\n',
        '/sys/fs/cgroup/cgroup.controllers': 'cpu pids memory\n',
        '/sys/fs/cgroup/svc/gs/pids.max': 'max\n',
        '/sys/fs/cgroup/svc/gs/pids.current': '40\n',
        '/sys/fs/cgroup/svc/pids.max': '5000\n',
        '/sys/fs/cgroup/svc/pids.current': '900\n',
        '/sys/fs/cgroup/svc/gs/cgroup.max.descendants': '100\n',
        '/sys/fs/cgroup/svc/gs/cgroup.stat': 'nr_descendants 7\nnr_dying_descendants 0\n',
      }),
    );
    expect(r.cgroups).toEqual({ kind: 'v2', controllers: ['cpu', 'pids', 'memory'] });
    expect(r.cgroupPids).toEqual({ limit: 5000, used: 900, cgroup: '/sys/fs/cgroup/svc' });
    expect(r.cgroupCount).toEqual({ limit: 100, used: 7 });
  });

  test('reads the task, descriptor, watch and pty use', () => {
    const r = readHostLimits(probe(BASE, { fds: 30, watches: 12 }));
    expect(r).toMatchObject({
      pidMax: { limit: 32768, used: 1200 },
      nofile: { limit: 20000, used: 30 },
      inotifyWatches: { limit: 192546, used: 12 },
      inotifyInstances: { limit: 128, used: 1 },
      ptys: { limit: 4096, used: 3 },
      nproc: undefined, // root: RLIMIT_NPROC is not enforced
    });
  });

  test('counts RLIMIT_NPROC for a non-root server', () => {
    const files = { ...BASE, '/proc/1/status': 'Uid:\t1000\t1000\nThreads:\t5\n', '/proc/2/status': 'Uid:\t0\t0\nThreads:\t9\n' };
    expect(readHostLimits(probe(files, { euid: 1000 })).nproc).toEqual({ limit: 96369, used: 5 });
  });

  test.each([
    ['unlimited open files', { '/proc/self/limits': LIMITS('unlimited', 'unlimited') }, 'nofile'],
    ['an unreadable pid_max', { '/proc/sys/kernel/pid_max': 'garbage' }, 'pidMax'],
  ] as const)('reads %s as no bound', (_what, over, key) => {
    expect(readHostLimits(probe({ ...BASE, ...over }))[key].limit).toBeUndefined();
  });

  test('reads this host without throwing', () => {
    expect(readHostLimits(SYSTEM_HOST_PROBE).pidMax.used).toBeGreaterThan(0);
  });
});

describe('checkHostCapacity', () => {
  const readings = readHostLimits(probe(BASE, { fds: 30 }));

  test.each<[string, ReturnType<typeof bwrap> | Array<{ backend: unknown }>, Record<string, unknown>]>([
    ['100 bwrap agents fit', bwrap(100), { kind: 'ok' }],
    [
      '11,000 bwrap agents exceed kernel.pid_max (3 tasks each)',
      bwrap(11000),
      {
        kind: 'exceeded',
        limit: 'kernel.pid_max',
        value: 32768,
        need: 1200 + 33000 + HOST_TASKS_RESERVE,
        fix: 'sysctl -w kernel.pid_max=34712',
      },
    ],
    ['10,000 bwrap agents fit ulimit -n 20000 (1 descriptor each: their output pipe)', bwrap(10000), { kind: 'ok' }],
    ['20,000 bwrap agents: kernel.pid_max is the first limit they exceed', bwrap(20000), { kind: 'exceeded', limit: 'kernel.pid_max' }],
    [
      '4,200 tmux panes exceed kernel.pty.max',
      Array.from({ length: 4200 }, () => ({ backend: 'tmux' })),
      { kind: 'exceeded', limit: 'kernel.pty.max' },
    ],
    [
      '20,000 mock agents fit (no task, no descriptor, a watch each)',
      Array.from({ length: 20000 }, () => ({ backend: 'mock' })),
      { kind: 'ok' },
    ],
  ])('%s', (_what, agents, expected) => {
    expect(checkHostCapacity(readings, agents as Array<{ backend: 'bwrap' }>)).toMatchObject(expected);
  });

  test('refuses on RLIMIT_NOFILE with the ulimit to raise', () => {
    const tight = readHostLimits(probe({ ...BASE, '/proc/self/limits': LIMITS('1024', 'unlimited') }, { fds: 30 }));
    expect(checkHostCapacity(tight, bwrap(300))).toEqual({ kind: 'ok' });
    const r = checkHostCapacity(tight, bwrap(900));
    expect(r).toEqual({
      kind: 'exceeded',
      limit: 'RLIMIT_NOFILE',
      value: 1024,
      need: 30 + 900 + SERVER_FDS_RESERVE,
      fix: expect.stringContaining('ulimit -n 1186'),
    });
  });

  test('counts agents that fit per limit and runner', () => {
    const pid = limitLines(readings).find((l) => l.limit === 'kernel.pid_max');
    expect(pid === undefined ? -1 : agentsThatFit(pid, 'bwrap')).toBe(Math.floor((32768 - 1200 - HOST_TASKS_RESERVE) / 3));
    expect(pid === undefined ? -1 : agentsThatFit(pid, 'mock')).toBeUndefined();
  });

  test.each([
    ['bwrap', 'bwrap'],
    [{ type: 'tmux' }, 'tmux'],
    [{ type: 'tmux', runner: 'bwrap' }, 'tmux-bwrap'],
    [{ type: 'tmux', runner: 'docker', image: 'x' }, 'tmux-docker'],
    [undefined, 'bwrap'],
  ] as const)('puts backend %j in the %s row', (backend, row) => {
    expect(hostCostRunnerOf({ backend: backend as never })).toBe(row);
    expect(AGENT_HOST_COST[row]).toBeDefined();
  });
});
