/**
 * `config.seccomp: "default"` on a bwrap agent: a C probe compiled here runs inside the real sandbox and sees
 * EPERM for every denied call (ENOSYS for clone3, SIGSYS for another ABI or architecture), while the same probe
 * without any filter (network open: none/isolated always carry the network filter) is not stopped by it. Needs
 * bwrap and gcc; skipped with a reason otherwise. The io_uring, socket-family and ptrace-like rows per network
 * mode: bwrap-filter-matrix.spec.ts.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunnerHandle } from '../../src/index';
import { createBwrapRunner } from '../../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec, readJsonIfWritten, waitForFile } from '../support';
import { hostRunsI386Syscalls } from './filter-rows';
import { waitFor } from '@genswarms/test-kit';

const missing = ['bwrap', 'gcc', 'socat'].filter((b) => !haveBinary(b));
const suite = missing.length === 0 ? describe : describe.skip;
if (missing.length > 0) console.warn(`SKIPPED bwrap-seccomp: ${missing.join(', ')} not installed`);

const EPERM = 1;
const ENOSYS = 38;
const SIGSYS = 31;
const DENIED = [
  'ptrace',
  'mount',
  'umount2',
  'keyctl',
  'add_key',
  'request_key',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'setns',
  'unshare_newuser',
  'clone_newuser',
  'socket_netlink',
  'io_uring_setup',
  'process_vm_readv',
  'process_vm_writev',
  'pidfd_getfd',
  'kcmp',
  'personality_read_implies_exec',
] as const;

type Report = Record<string, number | string>;

const SIGSEGV = 11;
let HOST_HAS_IA32 = true;

suite('bwrap seccomp filter, from inside the sandbox (real bubblewrap, compiled probe)', () => {
  let probeDir: string;
  let dirs: ReturnType<typeof makeSandboxDirs>;
  let handle: RunnerHandle | undefined;
  beforeAll(() => {
    probeDir = mkdtempSync(path.join(os.tmpdir(), 'gs-seccomp-probe-'));
    chmodSync(probeDir, 0o755); // a root test runs its agents as the agent uid, which must reach the probe
    execFileSync('gcc', ['-O0', '-o', path.join(probeDir, 'probe'), path.join(__dirname, 'seccomp-probe.c')], { stdio: 'pipe' });
    if (process.arch === 'x64') HOST_HAS_IA32 = hostRunsI386Syscalls(probeDir);
  });
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(async () => {
    await handle?.stop({ graceMs: 200 });
    handle = undefined;
    dirs.cleanup();
  });

  /** The probe's report: isolated with the filter (the socket-family rule applies too), open without any. */
  async function probe(seccomp: boolean): Promise<Report> {
    const ctx = makeContext(dirs.home, { llm: { defaultEndpoint: 'http://127.0.0.1:9/v1', allowedHosts: [] } });
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      network: seccomp ? 'isolated' : 'open',
      workspace: dirs.workspace,
      client: { command: ['/opt/probe/probe', '/workspace/report.json'] },
      config: { extra_ro_binds: [[probeDir, '/opt/probe']], ...(seccomp ? { seccomp: 'default' as const } : {}) },
    });
    handle = await runner.start(runner.plan(spec, ctx), ctx);
    await waitForFile(path.join(dirs.workspace, 'report.json'));
    return waitFor(() => readJsonIfWritten<Report>(path.join(dirs.workspace, 'report.json')), 'report.json', { intervalMs: 20 });
  }

  it('every denied call sees EPERM, clone3 ENOSYS, another ABI or architecture is killed; the rest works', async () => {
    const report = await probe(true);
    console.log(`seccomp default, inside bwrap: ${JSON.stringify(report)}`);
    expect(Object.fromEntries(DENIED.map((name) => [name, report[name]]))).toEqual(Object.fromEntries(DENIED.map((name) => [name, EPERM])));
    expect(report['clone3']).toBe(ENOSYS);
    expect(report['x32_getpid']).toBe(`signal:${SIGSYS}`);
    // a kernel built or booted without IA32 emulation faults on `int 0x80` before any filter runs (SIGSEGV
    // with or without seccomp, checked on this host): the call cannot happen at all, which is what the rule wants
    if (process.arch === 'x64') expect(report['i386_getpid']).toBe(`signal:${HOST_HAS_IA32 ? SIGSYS : SIGSEGV}`);
    expect([report['socket_unix'], report['socket_inet'], report['socket_inet6'], report['fork']]).toEqual([0, 0, 0, 0]);
  });

  it('without the filter the same probe is not stopped by it (the filter, not the sandbox, denies those calls)', async () => {
    const report = await probe(false);
    console.log(`no seccomp, network open, inside bwrap: ${JSON.stringify(report)}`);
    // each of these differs from the filtered run: the denial above is the filter's
    expect(report['ptrace']).not.toBe(EPERM);
    expect(report['setns']).not.toBe(EPERM);
    expect(report['socket_netlink']).toBe(0);
    expect(report['io_uring_setup']).toBe(0);
    expect(report['process_vm_readv']).toBe(0);
    expect(report['clone3']).not.toBe(ENOSYS);
    expect(report['x32_getpid']).not.toBe(`signal:${SIGSYS}`);
  });
});
