/**
 * The filter table of docs/runners.md "Seccomp" for docker, measured from inside real containers: the static probe
 * (seccomp-probe.c) bound read-only into the test image (busybox, no compiler, no python) and run headless in each
 * network mode, and in a tmux pane of runner docker. open keeps the engine's own default profile (which already
 * refuses the ptrace-like calls but, on Docker Engine 20.10.24, lets io_uring and AF_VSOCK through); none and
 * isolated get that profile plus the network denies. Needs a Docker engine and gcc with the static libc.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Runner, RunnerHandle } from '../../src/index';
import { createDockerRunner } from '../../src/index';
import { createTmuxDockerRunner } from '../../src/lib/docker/tmux-docker';
import { createTmuxRunner } from '../../src/lib/tmux/tmux-runner';
import { haveBinary, readJsonIfWritten } from '../support';
import { describeIfEngine, makeCtx, makeDirs, makeDockerSpec, TEST_IMAGE, waitFor, type TestDirs } from '../docker/docker-support';
import {
  buildStaticProbe,
  dockerExpectation,
  expectedRows,
  hostRunsI386Syscalls,
  I386_ROWS,
  i386Cell,
  observedRows,
  type Report,
} from './filter-rows';

let probeDir = '';
let skipReason = haveBinary('gcc') ? undefined : 'gcc not installed';
let hostHasIa32 = false;
if (skipReason === undefined) {
  probeDir = mkdtempSync(path.join(os.tmpdir(), 'gs-docker-filter-'));
  chmodSync(probeDir, 0o755); // the container runs as the agent uid, which must reach the probe
  try {
    buildStaticProbe(probeDir);
    hostHasIa32 = hostRunsI386Syscalls(probeDir);
  } catch (err) {
    skipReason = `gcc -static failed (libc6-dev missing?): ${String(err).slice(0, 200)}`;
  }
}
const describeIfProbe = skipReason === undefined ? describeIfEngine : describe.skip;
if (skipReason !== undefined) console.warn(`SKIPPED docker-filter-matrix: ${skipReason}`);

const SIGSYS = 31;
type Network = 'open' | 'none' | 'isolated';

describeIfProbe('docker filter table, from inside the container (real engine, static probe)', () => {
  let dirs: TestDirs;
  let handle: RunnerHandle | undefined;
  let runner: Runner | undefined;
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));
  beforeEach(() => {
    dirs = makeDirs('gs-docker-filter-');
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 0 });
    await runner?.close?.('shutdown');
    handle = undefined;
    runner = undefined;
    dirs.cleanup();
  });

  async function probe(network: Network, tmux: boolean): Promise<Report> {
    const ctx = makeCtx(dirs.home, { llm: { defaultEndpoint: 'http://127.0.0.1:9/v1', allowedHosts: [] } });
    runner = tmux ? createTmuxRunner({ docker: createTmuxDockerRunner({ defaultImage: TEST_IMAGE }) }) : createDockerRunner();
    const spec = makeDockerSpec({
      workspace: dirs.workspace,
      network,
      client: { command: ['/opt/probe/probe', '/workspace/report.json'] },
      config: { extra_ro_binds: [[probeDir, '/opt/probe']] },
      ...(tmux ? { backend: 'tmux' as const, runner: 'docker' as const } : {}),
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    return waitFor(() => readJsonIfWritten<Report>(path.join(dirs.workspace, 'report.json')), 'report.json');
  }

  test.each(['open', 'none', 'isolated'] as const)('headless, network %s: each row as the table says', async (network) => {
    const report = await probe(network, false);
    console.log(`docker ${network}: ${JSON.stringify(report)}`);
    const expected = expectedRows(dockerExpectation(network));
    expect(observedRows(report, expected)).toEqual(expected);
    // the engine's default admits the i386 ABI (socketcall opens AF_VSOCK there); none/isolated keep the native one only
    if (process.arch === 'x64') {
      const want = i386Cell(network === 'open' ? 0 : `signal:${SIGSYS}`, hostHasIa32);
      expect(I386_ROWS.map((r) => report[r])).toEqual(I386_ROWS.map(() => want));
      if (network !== 'open') expect(report['x32_getpid']).toBe(`signal:${SIGSYS}`);
    }
  });

  it('a tmux pane of runner docker, network none: the same profile', async () => {
    const report = await probe('none', true);
    const expected = expectedRows(dockerExpectation('none'));
    expect(observedRows(report, expected)).toEqual(expected);
  });
});
