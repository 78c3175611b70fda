/**
 * The classic-BPF builder and the default filter, run through a small interpreter of the seccomp subset here,
 * so both syscall tables (x86_64 and aarch64) are checked on any host, not only the one the sandbox test runs on.
 */
import { assembleBpf, NEXT, SOCK_FILTER_BYTES, type Insn } from '../../src/lib/seccomp/bpf';
import {
  buildDefaultSeccompFilter,
  CLONE_NEWUSER,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
} from '../../src/lib/seccomp/default-filter';
import { DENIED_SYSCALLS, SYSCALL_TABLES, seccompArchOf, type SeccompArch } from '../../src/lib/seccomp/syscall-tables';
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

describe.each(['x86_64', 'aarch64'] as const)('default filter on %s', (arch: SeccompArch) => {
  const t = SYSCALL_TABLES[arch];
  const filter = (isolated: boolean): Buffer => buildDefaultSeccompFilter({ arch, isolated });
  const call = (f: Buffer, nr: number, arg0 = 0): number => run(f, { nr, arch: t.auditArch, arg0 });

  test.each(DENIED_SYSCALLS.map((s) => [s]))('%s → EPERM', (name) => {
    expect(call(filter(false), t.numbers[name])).toBe(EPERM);
  });

  it('unshare and clone with CLONE_NEWUSER → EPERM; without it they pass', () => {
    for (const nr of [t.numbers.unshare, t.numbers.clone]) {
      expect(call(filter(false), nr, CLONE_NEWUSER | 0x11)).toBe(EPERM);
      expect(call(filter(false), nr, 0x11)).toBe(SECCOMP_RET_ALLOW);
    }
  });

  it('clone3 → ENOSYS (libc falls back to the inspected clone)', () => {
    expect(call(filter(false), t.numbers.clone3)).toBe(ENOSYS);
  });

  it('another architecture is killed', () => {
    const other = arch === 'x86_64' ? SYSCALL_TABLES.aarch64.auditArch : SYSCALL_TABLES.x86_64.auditArch;
    expect(run(filter(false), { nr: 0, arch: other })).toBe(SECCOMP_RET_KILL_PROCESS);
    expect(run(filter(false), { nr: 0, arch: 0x40000003 /* i386 */ })).toBe(SECCOMP_RET_KILL_PROCESS);
  });

  it('isolated: socket families other than AF_UNIX/AF_INET/AF_INET6 → EPERM; not isolated: allowed', () => {
    for (const family of [1, 2, 10]) expect(call(filter(true), t.numbers.socket, family)).toBe(SECCOMP_RET_ALLOW);
    for (const family of [16, 17, 38, 40]) {
      expect(call(filter(true), t.numbers.socket, family)).toBe(EPERM);
      expect(call(filter(false), t.numbers.socket, family)).toBe(SECCOMP_RET_ALLOW);
    }
  });

  it('ordinary calls pass (read, write, openat, execve numbers of this table are not in the deny list)', () => {
    const ordinary = arch === 'x86_64' ? [0, 1, 257, 59] : [63, 64, 56, 221];
    for (const nr of ordinary) expect(call(filter(true), nr)).toBe(SECCOMP_RET_ALLOW);
  });

  if (arch === 'x86_64') {
    it('the x32 ABI (nr | 0x40000000) is killed', () => {
      expect(call(filter(false), 0x40000000 | 39)).toBe(SECCOMP_RET_KILL_PROCESS);
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
  ])('%s → %s', (_name, s, canFilter, nodeArch, expected) => {
    expect(code(() => assertSeccompSupported(s, 'b', canFilter, nodeArch))).toBe(expected);
  });

  it('maps node arches onto the two tables', () => {
    expect([seccompArchOf('x64'), seccompArchOf('arm64'), seccompArchOf('ia32')]).toEqual(['x86_64', 'aarch64', undefined]);
  });
});
