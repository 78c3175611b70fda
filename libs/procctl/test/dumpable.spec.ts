import { readFileSync, statSync } from 'node:fs';
import { isChildSubreaper, isDumpable, PROCCTL_ADDON_PATH, setChildSubreaper, setDumpable } from '../src/index';
import { asNobody, FIXTURES, IS_ROOT, NOBODY, run, startUntilLine } from './support';

describe('setDumpable / setChildSubreaper on this process', () => {
  afterAll(() => {
    setDumpable(true);
    setChildSubreaper(false);
  });

  it('round-trips both flags', () => {
    setDumpable(false);
    expect(isDumpable()).toBe(false);
    setDumpable(true);
    expect(isDumpable()).toBe(true);
    setChildSubreaper(true);
    expect(isChildSubreaper()).toBe(true);
    setChildSubreaper(false);
    expect(isChildSubreaper()).toBe(false);
  });
});

(IS_ROOT ? describe : describe.skip)('a non-dumpable process is closed to another process of its own uid', () => {
  test.each<[string, '0' | '1', boolean]>([
    ['dumpable (control: the same-uid reader succeeds)', '1', true],
    ['non-dumpable', '0', false],
  ])('%s', async (_label, flag, readable) => {
    const { child, line } = await startUntilLine(asNobody([process.execPath, `${FIXTURES}/dumpable-probe.cjs`, flag, PROCCTL_ADDON_PATH]), {
      PATH: '/usr/bin:/bin',
      PROBE_CANARY: 'canary-91e4',
    });
    try {
      expect(line).toBe(`ready ${flag}`);
      const pid = child.pid ?? 0;
      expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(new RegExp(`^Uid:\\s+${NOBODY}\\s`, 'm'));
      expect(statSync(`/proc/${pid}/environ`).uid).toBe(readable ? NOBODY : 0);
      for (const file of ['environ', 'mem', 'fd/0']) {
        const r = run(asNobody(['/usr/bin/head', '-c', '1', `/proc/${pid}/${file}`]));
        if (file !== 'mem') expect(r.status === 0).toBe(readable);
        if (!readable) expect(r.stderr).toMatch(/Permission denied/);
      }
      const env = run(asNobody(['/usr/bin/cat', `/proc/${pid}/environ`]));
      expect(env.stdout.includes('canary-91e4')).toBe(readable);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
