/**
 * The classic-BPF builder and the default filter, run through a small interpreter of the seccomp subset here,
 * so both syscall tables (x86_64 and aarch64) are checked on any host, not only the one the sandbox test runs on.
 */
import { assembleBpf, NEXT, SOCK_FILTER_BYTES, type Insn } from '../../src/lib/seccomp/bpf';
import {
  buildSeccompFilter,
  CLONE_NEWUSER,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
} from '../../src/lib/seccomp/default-filter';
import { DENIED_SYSCALLS, SYSCALL_TABLES, URING_SYSCALLS, seccompArchOf, type SeccompArch } from '../../src/lib/seccomp/syscall-tables';
import { assertSeccompSupported } from '../../src/lib/seccomp/seccomp-plan';
import { isRunnerError } from '../../src/index';
import { makeSpec } from '../support';

/** Runs a compiled filter on one `struct seccomp_data` (nr, arch, args[0]); returns the action word. */
function run(filter: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const word = (off: number): number => (off === 0 ? data.nr : off === 4 ? data.arch : off === 16 ? (data.arg0 ?? 0) : 0);
  let acc = 0;
  for (let pc = 0; pc * SOCK_FILTER_BYTES < filter.length;) {
    const base = pc * SOCK_FILTER_BYTES;
    const [code, jt, jf, k] = [
      filter.readUInt16LE(base),
      filter.readUInt8(base + 2),
      filter.readUInt8(base + 3),
      filter.readUInt32LE(base + 4),
    ];
    if (code === 0x20) acc = word(k);
    else if (code === 0x06) return k;
    else if (code === 0x15 || code === 0x35 || code === 0x45) {
      const hit = code === 0x15 ? acc === k : code === 0x35 ? acc >>> 0 >= k : (acc & k) !== 0;
      pc += hit ? jt : jf;
    } else throw new Error(`unexpected opcode ${code}`);
    pc += 1;
  }
  throw new Error('fell off the end of the program');
}

const EPERM = SECCOMP_RET_ERRNO | 1;
const ENOSYS = SECCOMP_RET_ERRNO | 38;

describe.each(['x86_64', 'aarch64'] as const)('filters on %s', (arch: SeccompArch) => {
  const t = SYSCALL_TABLES[arch];
  /** hardening = config.seccomp "default"; families = network none/isolated. */
  const filter = (hardening: boolean, families = false): Buffer =>
    buildSeccompFilter({ arch, hardening, restrictSocketFamilies: families });
  const call = (f: Buffer, nr: number, arg0 = 0): number => run(f, { nr, arch: t.auditArch, arg0 });
  const FILTERS = [
    ['default, open', filter(true, false)],
    ['default, none/isolated', filter(true, true)],
    ['network only (none/isolated)', filter(false, true)],
  ] as const;

  test.each(DENIED_SYSCALLS.map((s) => [s]))('default: %s → EPERM', (name) => {
    expect(call(filter(true), t.numbers[name])).toBe(EPERM);
  });

  test.each(FILTERS)('%s: the io_uring calls → EPERM', (_name, f) => {
    for (const name of URING_SYSCALLS) expect(call(f, t.numbers[name])).toBe(EPERM);
  });

  it('network only: the ptrace-like calls, mounts and personality are not its business', () => {
    for (const name of ['ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'kcmp', 'mount', 'setns'] as const)
      expect(call(filter(false, true), t.numbers[name])).toBe(SECCOMP_RET_ALLOW);
    expect(call(filter(false, true), t.numbers.personality, 0x0400000)).toBe(SECCOMP_RET_ALLOW);
    expect(call(filter(false, true), t.numbers.unshare, CLONE_NEWUSER)).toBe(SECCOMP_RET_ALLOW);
  });

  it('unshare and clone with CLONE_NEWUSER → EPERM; without it they pass', () => {
    for (const nr of [t.numbers.unshare, t.numbers.clone]) {
      expect(call(filter(true), nr, CLONE_NEWUSER | 0x11)).toBe(EPERM);
      expect(call(filter(true), nr, 0x11)).toBe(SECCOMP_RET_ALLOW);
    }
  });

  it.each([
    ['PER_LINUX', 0, SECCOMP_RET_ALLOW],
    ['the query 0xffffffff', 0xffffffff, SECCOMP_RET_ALLOW],
    ['READ_IMPLIES_EXEC', 0x0400000, EPERM],
    ['ADDR_NO_RANDOMIZE', 0x0040000, EPERM],
    ['PER_LINUX32', 0x0008, EPERM],
    ['PER_LINUX | READ_IMPLIES_EXEC | ADDR_NO_RANDOMIZE', 0x0440000, EPERM],
    ['0xfffffffe (one bit short of the query)', 0xfffffffe, EPERM],
  ])('default: personality(%s) → %s', (_name, persona, action) => {
    expect(call(filter(true), t.numbers.personality, persona)).toBe(action);
  });

  it('clone3 → ENOSYS (libc falls back to the inspected clone)', () => {
    expect(call(filter(true), t.numbers.clone3)).toBe(ENOSYS);
  });

  test.each(FILTERS)('%s: another architecture is killed', (_name, f) => {
    const other = arch === 'x86_64' ? SYSCALL_TABLES.aarch64.auditArch : SYSCALL_TABLES.x86_64.auditArch;
    expect(run(f, { nr: 0, arch: other })).toBe(SECCOMP_RET_KILL_PROCESS);
    expect(run(f, { nr: 0, arch: 0x40000003 /* i386 */ })).toBe(SECCOMP_RET_KILL_PROCESS);
  });

  it.each([
    ['socket', t.numbers.socket],
    ['socketpair', t.numbers.socketpair],
  ])('none/isolated: %s keeps AF_UNIX/AF_INET/AF_INET6, every other family → EPERM; open: any family', (_name, nr) => {
    for (const f of [filter(true, true), filter(false, true)]) {
      for (const family of [1, 2, 10]) expect(call(f, nr, family)).toBe(SECCOMP_RET_ALLOW);
      for (const family of [0, 3, 16, 17, 38, 40, 44, 45, 255]) expect(call(f, nr, family)).toBe(EPERM);
    }
    for (const family of [16, 17, 38, 40]) expect(call(filter(true, false), nr, family)).toBe(SECCOMP_RET_ALLOW);
  });

  test.each(FILTERS)('%s: ordinary calls pass (read, write, openat, execve of this table)', (_name, f) => {
    const ordinary = arch === 'x86_64' ? [0, 1, 257, 59] : [63, 64, 56, 221];
    for (const nr of ordinary) expect(call(f, nr)).toBe(SECCOMP_RET_ALLOW);
  });

  if (arch === 'x86_64') {
    test.each(FILTERS)('%s: the x32 ABI (nr | 0x40000000) is killed, its socket call too', (_name, f) => {
      expect(call(f, 0x40000000 | 39)).toBe(SECCOMP_RET_KILL_PROCESS);
      expect(call(f, 0x40000000 | t.numbers.socket, 40)).toBe(SECCOMP_RET_KILL_PROCESS);
    });
  }
});

describe('BPF assembler', () => {
  it('encodes whole instructions: ld, jeq with resolved labels, ret', () => {
    const prog: Insn[] = [
      { op: 'ld', offset: 4 },
      { op: 'jeq', k: 7, jt: NEXT, jf: 'out' },
      { op: 'ret', k: 1 },
      { op: 'label', name: 'out' },
      { op: 'ret', k: 2 },
    ];
    const hex = assembleBpf(prog).toString('hex');
    expect(hex).toBe(
      ['2000' + '0000' + '04000000', '1500' + '0001' + '07000000', '0600' + '0000' + '01000000', '0600' + '0000' + '02000000'].join(''),
    );
  });

  test.each([
    ['an unknown label', [{ op: 'jeq', k: 1, jt: 'nowhere', jf: NEXT } as Insn, { op: 'ret', k: 0 } as Insn]],
    [
      'a backward jump',
      [{ op: 'label', name: 'top' } as Insn, { op: 'jeq', k: 1, jt: 'top', jf: NEXT } as Insn, { op: 'ret', k: 0 } as Insn],
    ],
    ['a negative constant', [{ op: 'ret', k: -1 } as Insn]],
    ['an empty program', []],
  ])('refuses %s', (_name, prog) => {
    expect(() => assembleBpf(prog as Insn[])).toThrow(/seccomp/);
  });
});

describe('where seccomp is accepted', () => {
  const code = (fn: () => void): unknown => {
    try {
      fn();
    } catch (err) {
      return isRunnerError(err) ? err.code : err;
    }
    return 'ok';
  };
  const spec = (seccomp: unknown) => makeSpec({ workspace: '/w', config: { seccomp } as never });

  it.each([
    ['bwrap, default, x64', spec('default'), true, 'x64', 'ok'],
    ['bwrap, default, arm64', spec('default'), true, 'arm64', 'ok'],
    ['bwrap, default, riscv64 (no table)', spec('default'), true, 'riscv64', 'seccomp_unsupported'],
    ['a backend without a filter', spec('default'), false, 'x64', 'seccomp_unsupported'],
    ['an unknown filter name', spec('strict'), true, 'x64', 'seccomp_unsupported'],
    ['not requested, any backend', makeSpec({ workspace: '/w' }), false, 'riscv64', 'ok'],
    [
      'bwrap, network none, riscv64 (the network filter has no table)',
      makeSpec({ workspace: '/w', network: 'none' }),
      true,
      'riscv64',
      'seccomp_unsupported',
    ],
    ['bwrap, network isolated, arm64', makeSpec({ workspace: '/w', network: 'isolated' }), true, 'arm64', 'ok'],
    ['a backend without a filter, network none, riscv64', makeSpec({ workspace: '/w', network: 'none' }), false, 'riscv64', 'ok'],
  ])('%s → %s', (_name, s, canFilter, nodeArch, expected) => {
    expect(code(() => assertSeccompSupported(s, 'b', canFilter, nodeArch))).toBe(expected);
  });

  it('maps node arches onto the two tables', () => {
    expect([seccompArchOf('x64'), seccompArchOf('arm64'), seccompArchOf('ia32')]).toEqual(['x86_64', 'aarch64', undefined]);
  });
});
