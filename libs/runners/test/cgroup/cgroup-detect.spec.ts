/** Which tracking a host gets: detected from mountinfo, /proc/self/cgroup, the uid and writability, never assumed. */
import {
  chooseProcessTracking,
  describeProcessTracking,
  detectProcessTracking,
  parseCgroupMounts,
  type TrackingProbe,
} from '../../src/lib/cgroup/cgroup-detect';
import { fakeProbe, type FakeProbeInput } from './fake-probe';

/** A hybrid host like the CI box: v1 controllers plus an empty cgroup2 `unified` mount. */
const HYBRID_MOUNTINFO = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const HYBRID_CGROUP = '8:pids:/\n6:freezer:/\n0::/\n';
const V2_MOUNTINFO = '30 23 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate';
const V2_CGROUP = '0::/user.slice/genswarms.service\n';

function probe(over: FakeProbeInput): TrackingProbe {
  return fakeProbe({ mountinfo: HYBRID_MOUNTINFO, procCgroup: HYBRID_CGROUP }, over);
}

describe('process tracking detection', () => {
  it('hybrid host as root: the empty unified mount is passed over for the v1 freezer', () => {
    const t = chooseProcessTracking(
      probe({
        writable: ['/sys/fs/cgroup/unified', '/sys/fs/cgroup/freezer', '/sys/fs/cgroup/pids'],
        files: { '/sys/fs/cgroup/unified/cgroup.controllers': '\n' },
      }),
    );
    expect(t).toEqual({ kind: 'cgroup1', root: '/sys/fs/cgroup/freezer', controller: 'freezer' });
  });

  it('v1 without a freezer hierarchy falls back to pids', () => {
    const t = chooseProcessTracking(probe({ mountinfo: HYBRID_MOUNTINFO.replace(/.*freezer.*\n/, ''), writable: ['/sys/fs/cgroup/pids'] }));
    expect(t).toEqual({ kind: 'cgroup1', root: '/sys/fs/cgroup/pids', controller: 'pids' });
  });

  it('a delegated, writable v2 subtree with pids wins (its root is the server cgroup)', () => {
    const own = '/sys/fs/cgroup/user.slice/genswarms.service';
    const t = chooseProcessTracking(
      probe({
        mountinfo: V2_MOUNTINFO,
        procCgroup: V2_CGROUP,
        euid: 1000,
        writable: [own],
        files: { [`${own}/cgroup.controllers`]: 'cpu memory pids\n' },
      }),
    );
    expect(t).toEqual({ kind: 'cgroup2', root: own, controllers: ['cpu', 'memory', 'pids'] });
  });

  it.each([
    ['v2 not delegated (not writable), not root', { mountinfo: V2_MOUNTINFO, procCgroup: V2_CGROUP, euid: 1000 }],
    [
      'v2 writable but without the pids controller, not root',
      {
        mountinfo: V2_MOUNTINFO,
        procCgroup: V2_CGROUP,
        euid: 1000,
        writable: ['/sys/fs/cgroup/user.slice/genswarms.service'],
        files: { '/sys/fs/cgroup/user.slice/genswarms.service/cgroup.controllers': 'memory\n' },
      },
    ],
    ['v1 only, not root', { euid: 1000, writable: ['/sys/fs/cgroup/freezer'] }],
    ['v1 only, root, read-only hierarchies', { euid: 0 }],
    ['no cgroup mounts at all', { mountinfo: '22 1 0:21 / /proc rw - proc proc rw', procCgroup: '' }],
  ] as const)('%s → none (best effort), with the reasons', (_name, over) => {
    const t = chooseProcessTracking(probe(over));
    expect(t.kind).toBe('none');
    expect(describeProcessTracking(t)).toMatch(/^none: best effort/);
  });

  it('decodes escaped mount points (a space is \\040)', () => {
    expect(parseCgroupMounts('41 31 0:38 / /sys/fs/cgroup/odd\\040name rw - cgroup cgroup rw,pids')).toEqual([
      { root: '/', mountPoint: '/sys/fs/cgroup/odd name', fsType: 'cgroup', superOptions: ['rw', 'pids'] },
    ]);
  });

  it('describes each mechanism in one line for doctor', () => {
    expect(describeProcessTracking({ kind: 'cgroup1', root: '/sys/fs/cgroup/freezer', controller: 'freezer' })).toMatch(
      /^cgroup v1 freezer \(\/sys\/fs\/cgroup\/freezer\): stop kills every process/,
    );
    expect(describeProcessTracking({ kind: 'cgroup2', root: '/sys/fs/cgroup/x', controllers: [] })).toMatch(
      /^cgroup v2 \(\/sys\/fs\/cgroup\/x\)/,
    );
    expect(detectProcessTracking().kind).toMatch(/^(cgroup1|cgroup2|none)$/); // this host, whatever it is
  });
});
