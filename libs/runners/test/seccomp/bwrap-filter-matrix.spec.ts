/**
 * The filter table of docs/runners.md "Seccomp" for bwrap, measured from inside real sandboxes: one static probe
 * (seccomp-probe.c) run headless in each network mode with and without `seccomp: "default"`, and in a tmux pane of
 * runner bwrap. none/isolated are refused the io_uring calls and every socket family but unix/inet/inet6 (socket and
 * socketpair) whether or not seccomp is set; `default` adds the ptrace-like calls; open without seccomp has no
 * filter at all. Needs bwrap, gcc with the static libc, socat and tmux; skipped loudly otherwise.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentLaunchSpec, Runner, RunnerHandle } from '../../src/index';
import { createBwrapRunner, createTmuxRunner } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec, readJsonIfWritten, waitForFile } from '../support';
import {
  bwrapExpectation,
  buildStaticProbe,
  expectedRows,
  hostRunsI386Syscalls,
  I386_ROWS,
  i386Cell,
  observedRows,
  type Report,
} from './filter-rows';
import { waitFor } from '@genswarms/test-kit';

const SIGSYS = 31;
const missing = ['bwrap', 'gcc', 'socat', 'tmux'].filter((b) => !haveBinary(b));
let probeDir = '';
let skipReason = missing.length > 0 ? `${missing.join(', ')} not installed` : undefined;
let hostHasIa32 = false;
if (skipReason === undefined) {
  probeDir = mkdtempSync(path.join(os.tmpdir(), 'gs-filter-matrix-'));
  chmodSync(probeDir, 0o755); // a root test runs its agents as the agent uid, which must reach the probe
  try {
    buildStaticProbe(probeDir);
    hostHasIa32 = hostRunsI386Syscalls(probeDir);
  } catch (err) {
    skipReason = `gcc -static failed (libc6-dev missing?): ${String(err).slice(0, 200)}`;
  }
}
const suite = skipReason === undefined ? describe : describe.skip;
if (skipReason !== undefined) console.warn(`SKIPPED bwrap-filter-matrix: ${skipReason}`);

type Network = 'open' | 'none' | 'isolated';

suite('bwrap filter table, from inside the sandbox (real bubblewrap, static probe)', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  let runner: Runner | undefined;
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    await runner?.close?.('shutdown');
    handle = undefined;
    runner = undefined;
    dirs.cleanup();
  });

  async function probe(over: Partial<AgentLaunchSpec>, seccomp: boolean): Promise<Report> {
    const ctx = makeContext(dirs.home, { llm: { defaultEndpoint: 'http://127.0.0.1:9/v1', allowedHosts: [] } });
    runner = over.backend === 'tmux' ? createTmuxRunner() : createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      workspace: dirs.workspace,
      client: { command: ['/opt/probe/probe', '/workspace/report.json'] },
      config: { extra_ro_binds: [[probeDir, '/opt/probe']], ...(seccomp ? { seccomp: 'default' as const } : {}) },
      ...over,
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    const file = path.join(dirs.workspace, 'report.json');
    await waitForFile(file);
    return waitFor(() => readJsonIfWritten<Report>(file), 'report.json', { intervalMs: 20 });
  }

  const MODES: readonly [Network, boolean][] = [
    ['open', false],
    ['open', true],
    ['none', false],
    ['none', true],
    ['isolated', false],
    ['isolated', true],
  ];
  test.each(MODES)('headless, network %s, seccomp default %s: each row as the table says', async (network, seccomp) => {
    const report = await probe({ network }, seccomp);
    console.log(`bwrap ${network} seccomp=${String(seccomp)}: ${JSON.stringify(report)}`);
    const expected = expectedRows(bwrapExpectation(network, seccomp));
    expect(observedRows(report, expected)).toEqual(expected);
    // any filter of ours kills another ABI: an x32 or i386 socket call cannot step around the family rule
    const filtered = network !== 'open' || seccomp;
    if (filtered) expect(report['x32_getpid']).toBe(`signal:${SIGSYS}`);
    else expect(report['x32_getpid']).not.toBe(`signal:${SIGSYS}`);
    if (process.arch === 'x64') {
      const want = i386Cell(filtered ? `signal:${SIGSYS}` : 0, hostHasIa32);
      expect(I386_ROWS.map((r) => report[r])).toEqual(I386_ROWS.map(() => want));
    }
  });

  it('a tmux pane of runner bwrap, network none, no seccomp: the network filter is there too', async () => {
    const report = await probe({ backend: 'tmux', runner: 'bwrap', network: 'none' }, false);
    const expected = expectedRows(bwrapExpectation('none', false));
    expect(observedRows(report, expected)).toEqual(expected);
  });
});
