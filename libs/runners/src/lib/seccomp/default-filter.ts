import { assembleBpf, NEXT, type Insn } from './bpf';
import { DENIED_SYSCALLS, SYSCALL_TABLES, type SeccompArch } from './syscall-tables';

/** `SECCOMP_RET_KILL_PROCESS`: another architecture or ABI than the table's. */
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
/** `SECCOMP_RET_ERRNO | errno`. */
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const EPERM = 1;
export const ENOSYS = 38;
/** `CLONE_NEWUSER` (linux/sched.h). */
export const CLONE_NEWUSER = 0x10000000;
/** Socket families an isolated agent keeps: AF_UNIX, AF_INET, AF_INET6. */
export const ALLOWED_SOCKET_FAMILIES: readonly number[] = [1, 2, 10];
/** `struct seccomp_data` offsets: nr, arch, args[0] (low word on little-endian targets). */
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LO = 16;

export interface DefaultFilterOptions {
  readonly arch: SeccompArch;
  /** `network: isolated`: socket families other than AF_UNIX/AF_INET/AF_INET6 are denied too. */
  readonly isolated: boolean;
}

/**
 * `config.seccomp: "default"` (docs/runners.md "Seccomp"): kill on another architecture (or the x32 ABI);
 * EPERM for ptrace, the mount family, keyrings, bpf, perf_event_open, userfaultfd, kexec, modules, setns,
 * and unshare/clone with CLONE_NEWUSER; ENOSYS for clone3 (its flags are behind a pointer, so libc falls back
 * to clone, which is inspected); isolated: EPERM for other socket families. Everything else is allowed.
 */
export function defaultFilterProgram(opts: DefaultFilterOptions): Insn[] {
  const t = SYSCALL_TABLES[opts.arch];
  const n = t.numbers;
  const p: Insn[] = [
    { op: 'ld', offset: OFF_ARCH },
    { op: 'jeq', k: t.auditArch, jt: NEXT, jf: 'kill' },
    { op: 'ld', offset: OFF_NR },
  ];
  if (t.x32Bit !== undefined) p.push({ op: 'jge', k: t.x32Bit, jt: 'kill', jf: NEXT });
  for (const name of DENIED_SYSCALLS) p.push({ op: 'jeq', k: n[name], jt: 'eperm', jf: NEXT });
  p.push(
    { op: 'jeq', k: n.clone3, jt: 'enosys', jf: NEXT },
    { op: 'jeq', k: n.unshare, jt: 'newuser', jf: NEXT },
    { op: 'jeq', k: n.clone, jt: 'newuser', jf: NEXT },
  );
  if (opts.isolated) p.push({ op: 'jeq', k: n.socket, jt: 'family', jf: NEXT });
  p.push(
    { op: 'ret', k: SECCOMP_RET_ALLOW },
    { op: 'label', name: 'newuser' },
    { op: 'ld', offset: OFF_ARG0_LO },
    { op: 'jset', k: CLONE_NEWUSER, jt: 'eperm', jf: 'allow' },
  );
  if (opts.isolated) {
    p.push({ op: 'label', name: 'family' }, { op: 'ld', offset: OFF_ARG0_LO });
    for (const family of ALLOWED_SOCKET_FAMILIES) p.push({ op: 'jeq', k: family, jt: 'allow', jf: NEXT });
    p.push({ op: 'ret', k: SECCOMP_RET_ERRNO | EPERM });
  }
  p.push(
    { op: 'label', name: 'allow' },
    { op: 'ret', k: SECCOMP_RET_ALLOW },
    { op: 'label', name: 'eperm' },
    { op: 'ret', k: SECCOMP_RET_ERRNO | EPERM },
    { op: 'label', name: 'enosys' },
    { op: 'ret', k: SECCOMP_RET_ERRNO | ENOSYS },
    { op: 'label', name: 'kill' },
    { op: 'ret', k: SECCOMP_RET_KILL_PROCESS },
  );
  return p;
}

/** The compiled filter (`struct sock_filter[]`, host byte order) bwrap reads from `--seccomp <fd>`. */
export function buildDefaultSeccompFilter(opts: DefaultFilterOptions): Buffer {
  return assembleBpf(defaultFilterProgram(opts));
}
