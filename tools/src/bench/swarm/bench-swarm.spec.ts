import { join } from 'node:path';
import { buildOnce, REPO_ROOT } from '../../build-once/build-once';
import { TMUX_BIN, unavailableReason } from './backends';
import { decilesOf } from './bench-run';
import { runBench } from './bench-swarm';
import { parseBenchArgs } from './main';
import { measureTmuxPrimitives, RAW_PASTE_SAMPLES, timeCommandParallel } from './primitives';
import { formatReport, type BenchReport } from './report';

// Correctness smoke of `npm run bench` (docs/benchmarks.md): a real server, two swarms of 3 for mock, local and tmux,
// every phase runs and reports, nothing is left behind. No timing is asserted (figures are printed).
beforeAll(() => {
  const built = buildOnce([join(REPO_ROOT, 'apps/server/tsconfig.lib.json'), join(REPO_ROOT, 'apps/agent/tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`build failed: ${built.output.slice(0, 2000)}`);
}, 600_000);

test('runs two swarms of 3 at once (mock, local, tmux) through launch, turns, idle, API, paste and DELETE, leaving nothing', async () => {
  const backends = (['mock', 'local', 'tmux'] as const).filter((b) => unavailableReason(b) === undefined);
  const report = await runBench({
    ns: [3],
    backends,
    turns: 2,
    idleMs: 200,
    listSwarmsMs: 200,
    primitives: false,
    swarms: 2,
    pasteSamples: 2,
  });
  expect(report.runs.map((r) => [r.backend, r.n, r.swarms, r.error])).toEqual(backends.map((b) => [b, 3, 2, undefined]));
  for (const r of report.runs) {
    expect(r.readyMs).toEqual(expect.any(Number));
    expect(r.stopMs).toEqual(expect.any(Number));
    expect(r.stopServerCpuS).toEqual(expect.any(Number));
    expect(r.launchServerCpuS).toEqual(expect.any(Number));
    expect(r.idleServerCpuPct).toEqual(expect.any(Number));
    expect(r.listSwarms?.rps).toBeGreaterThan(0);
    expect(r.listSwarms?.bareRps).toBeGreaterThan(0);
    expect(r.listSwarms?.gated.cpuMsPerReq).toEqual(expect.any(Number));
    expect(r.serverFds).toBeGreaterThan(0);
    expect(r.inotifyWatches).toEqual(expect.any(Number));
    expect([r.leftoverProcesses, r.tmuxServerLeft, r.leftoverDirs]).toEqual([[], false, []]);
  }
  expect(report.runs[1]?.receiptToEvent?.samples).toBe(2);
  if (backends.includes('tmux')) {
    expect(report.runs[2]?.restPaste?.samples).toBe(2);
    // the baseline: a raw paste into the same pane on the swarm's own tmux server after each REST sample,
    // each either measured or counted missed (a miss never fails the run)
    expect((report.runs[2]?.rawPaste?.samples ?? 0) + (report.runs[2]?.rawPasteMissed ?? -1)).toBe(2);
    // 2 × 3 tmux agents fit one tmux server (TMUX_PANES_PER_SERVER), whose CPU is read at ready
    expect(report.runs[2]?.tmuxServers).toBe(1);
    expect(report.runs[2]?.launchTmuxCpuS).toEqual(expect.any(Number));
    expect(report.runs[2]?.stopTmuxCpuS).toEqual(expect.any(Number));
  }
  const md = formatReport(report);
  for (const heading of ['## Launch', '## Stop', '## Idle', '## Latency', '## API', '## Task delivery', '## Memory'])
    expect(md).toContain(heading);
  expect(md).toContain('| mock | 2×3 |');
}, 240_000);

(unavailableReason('tmux') === undefined ? test : test.skip)(
  'measures a raw control-mode paste → read on a private tmux server',
  async () => {
    const p = await measureTmuxPrimitives(TMUX_BIN, 2);
    expect(p.pasteRead?.samples).toBe(RAW_PASTE_SAMPLES);
    expect(p.pasteRead?.p50Ms).toBeGreaterThan(0);
  },
  120_000,
);

test('times a command with several runs in flight (the parallel raw sandbox): ms of wall time per run', async () => {
  const serial = await timeCommandParallel(['/bin/sleep', '0.1'], 4, 1);
  const parallel = await timeCommandParallel(['/bin/sleep', '0.1'], 4, 4);
  expect(serial).toBeGreaterThanOrEqual(100);
  // four sleeps of 100 ms at once take ~100 ms in all: ~25 ms per run, well under the serial figure
  expect(parallel).toBeLessThan(serial / 2);
}, 30_000);

test('splits a launch from its first ready agent into ten tenths of ms per agent', () => {
  const ready = Array.from({ length: 21 }, (_, i) => 1000 + i * 10);
  expect(decilesOf(ready)).toEqual(Array(10).fill(10));
  const slowing = Array.from({ length: 11 }, (_, i) => i * i);
  expect(decilesOf(slowing)).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
  expect(decilesOf([1, 2, 3])).toEqual([]);
});

test.each([
  [['--n', '0'], /--n/],
  [['--n', '10,x'], /--n/],
  [['--backends', 'docker'], /unknown backend docker/],
  [['--bogus'], /unknown flag --bogus/],
  [['--turns', '-1'], /--turns/],
  [['--swarms', '0'], /--swarms/],
  [['--paste-samples', '-1'], /--paste-samples/],
  [['--ring-clients', 'docker'], /--ring-clients/],
])('refuses bench flags %j', (argv, reason) => {
  expect(() => parseBenchArgs(argv)).toThrow(reason);
});

test('marks a missed goal and a met one in the tables', () => {
  const base: BenchReport = {
    date: 'd',
    commit: 'c',
    server: 's',
    machine: { cores: 2, memGiB: 24, kernel: 'k', node: '20' },
    ns: [1000],
    skipped: [],
    primitives: { bwrapMs: 10 },
    runs: [{ backend: 'bwrap', n: 1000, readyMs: 20_000, stopMs: 5_000, leftoverProcesses: [], tmuxServerLeft: false, leftoverDirs: [] }],
  };
  const md = formatReport(base);
  expect(md).toMatch(/\| bwrap \| 1000 \| 20\.00 \| 20\.00 \| — \| — \| 2\.00 \| — \| MISSED \|/);
  expect(md).toMatch(/\| bwrap \| 1000 \| 5\.00 \| — \| — \| 0 \| no \| 0 \| MET \|/);
});

test('holds a run of 10,000 agents to the scale goals: the same figures meet them there and miss at 1,000', () => {
  const run = {
    backend: 'bwrap' as const,
    readyMs: 80_000,
    stopMs: 15_000,
    rssMib: 900,
    leftoverProcesses: [],
    tmuxServerLeft: false,
    leftoverDirs: [],
  };
  const report = (n: number, swarms: number | undefined, fds: number): string =>
    formatReport({
      date: 'd',
      commit: 'c',
      server: 's',
      machine: { cores: 2, memGiB: 24, kernel: 'k', node: '20' },
      ns: [n],
      skipped: [],
      primitives: {},
      runs: [
        { ...run, n, ...(swarms === undefined ? {} : { swarms }), serverFdsBefore: 200, serverFds: fds, inotifyWatches: n * (swarms ?? 1) },
      ],
    });
  const stopLine = (md: string): string | undefined => md.split('\n').find((l) => l.includes('| 15.00 |'));
  const memoryLine = (md: string): string | undefined => md.split('\n').find((l) => l.includes('| 900 |'));
  expect(stopLine(report(10_000, undefined, 10_200))).toMatch(/MET \|$/);
  expect(stopLine(report(1000, 10, 10_200))).toMatch(/MET \|$/); // 10 × 1,000 is 10,000 agents
  expect(stopLine(report(1000, undefined, 1020))).toMatch(/MISSED \|$/);
  expect(memoryLine(report(10_000, undefined, 10_200))).toMatch(/MET \|$/);
  expect(memoryLine(report(10_000, undefined, 30_000))).toMatch(/MISSED \|$/); // 3 descriptors per agent
  expect(memoryLine(report(1000, undefined, 1020))).toMatch(/MISSED \|$/); // RSS 900 > 300 at 1,000
});
