/** Which limits a host can enforce: detected from mountinfo, /proc/self/cgroup, the uid and writability, never assumed. */
import type { TrackingProbe } from '../../src/lib/cgroup/cgroup-detect';
import { chooseLimitSupport, describeLimitSupport, unenforceableKeys } from '../../src/lib/cgroup/limit-detect';
import { fakeProbe, type FakeProbeInput } from '../cgroup/fake-probe';

/** Like the CI box: v1 controllers (cpu and cpuacct apart) plus an empty cgroup2 `unified` mount. */
const HYBRID_MOUNTINFO = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const HYBRID_CGROUP = '8:pids:/\n4:memory:/process_api/x\n2:cpuacct:/\n1:cpu:/\n0::/\n';
const V2_MOUNTINFO = '30 23 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate';

function probe(over: FakeProbeInput): TrackingProbe {
  return fakeProbe({ mountinfo: HYBRID_MOUNTINFO, procCgroup: HYBRID_CGROUP }, over);
}

const V1_WRITABLE = ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpuacct', '/sys/fs/cgroup/memory/process_api/x', '/sys/fs/cgroup/pids'];

describe('limit support detection', () => {
  it("hybrid host as root: v1 per controller, below the server's own group of each hierarchy", () => {
    const s = chooseLimitSupport(probe({ writable: V1_WRITABLE, files: { '/sys/fs/cgroup/unified/cgroup.controllers': '\n' } }));
    expect(s).toEqual({
      version: 1,
      bases: {
        memory: '/sys/fs/cgroup/memory/process_api/x',
        pids: '/sys/fs/cgroup/pids',
        cpu: '/sys/fs/cgroup/cpu',
        cpuacct: '/sys/fs/cgroup/cpuacct',
      },
      reasons: [],
    });
    expect(describeLimitSupport(s)).toBe('cgroup v1: enforced memory_limit, pids_limit, cpu_limit');
  });

  it('v1 without a cpu hierarchy enforces memory and pids and refuses cpu_limit', () => {
    const s = chooseLimitSupport(probe({ mountinfo: HYBRID_MOUNTINFO.replace(/.*rw,cpu\n/, ''), writable: V1_WRITABLE }));
    expect(unenforceableKeys(s, ['memory_limit', 'pids_limit', 'cpu_limit'])).toEqual(['cpu_limit']);
    expect(describeLimitSupport(s)).toMatch(
      /^cgroup v1: enforced memory_limit, pids_limit; refused at plan \(limits_unsupported\): cpu_limit/,
    );
  });

  it('v1 as a non-root user: nothing (every requested limit is refused)', () => {
    const s = chooseLimitSupport(probe({ euid: 1000, writable: V1_WRITABLE }));
    expect(s.version).toBeUndefined();
    expect(unenforceableKeys(s, ['pids_limit'])).toEqual(['pids_limit']);
    expect(s.reasons.join('; ')).toContain('cgroup v1 needs root');
  });

  it('hierarchies outside the injected root do not count', () => {
    const s = chooseLimitSupport(probe({ writable: V1_WRITABLE }), '/tmp/empty-cgroup-root');
    expect(s).toMatchObject({ version: undefined, bases: {} });
  });

  it('a delegated v2 subtree counts only the controllers its subtree_control passes down', () => {
    const own = '/sys/fs/cgroup/user.slice/genswarms.service';
    const s = chooseLimitSupport(
      probe({
        mountinfo: V2_MOUNTINFO,
        procCgroup: '0::/user.slice/genswarms.service\n',
        euid: 1000,
        writable: [own],
        files: { [`${own}/cgroup.controllers`]: 'cpu memory pids\n', [`${own}/cgroup.subtree_control`]: 'memory pids\n' },
      }),
    );
    expect(s.bases).toEqual({ memory: own, pids: own });
    expect(unenforceableKeys(s, ['cpu_limit', 'memory_limit'])).toEqual(['cpu_limit']);
  });

  it('the v2 mount root (a private cgroup namespace) may enable every controller it has', () => {
    const s = chooseLimitSupport(
      probe({
        mountinfo: V2_MOUNTINFO,
        procCgroup: '0::/\n',
        writable: ['/sys/fs/cgroup'],
        files: { '/sys/fs/cgroup/cgroup.controllers': 'cpuset cpu io memory pids\n', '/sys/fs/cgroup/cgroup.subtree_control': '' },
      }),
    );
    expect(s).toEqual({ version: 2, bases: { memory: '/sys/fs/cgroup', pids: '/sys/fs/cgroup', cpu: '/sys/fs/cgroup' }, reasons: [] });
  });

  it('a v2 group that is not writable falls back to v1 as root', () => {
    const s = chooseLimitSupport(probe({ writable: V1_WRITABLE }));
    expect(s.version).toBe(1);
  });
});
