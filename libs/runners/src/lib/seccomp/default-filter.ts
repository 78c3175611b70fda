import { assembleBpf, NEXT, type Insn } from './bpf';
import { DENIED_SYSCALLS, SYSCALL_TABLES, URING_SYSCALLS, type SeccompArch } from './syscall-tables';

/** `SECCOMP_RET_KILL_PROCESS`: another architecture or ABI than the table's. */
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
/** `SECCOMP_RET_ERRNO | errno`. */
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const EPERM = 1;
export const ENOSYS = 38;
/** `CLONE_NEWUSER` (linux/sched.h). */
export const CLONE_NEWUSER = 0x10000000;
/** Socket families a none/isolated agent keeps: AF_UNIX, AF_INET, AF_INET6 (AF_VSOCK = 40 ignores network namespaces). */
export const ALLOWED_SOCKET_FAMILIES: readonly number[] = [1, 2, 10];
/** `personality` values the hardened filter lets through: PER_LINUX, and 0xffffffff (a query that changes nothing). */
export const ALLOWED_PERSONAS: readonly number[] = [0, 0xffffffff];
/** `struct seccomp_data` offsets: nr, arch, args[0] (low word on little-endian targets). */
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LO = 16;

export interface FilterOptions {
  readonly arch: SeccompArch;
  /** `config.seccomp: "default"`: the deny list, clone/unshare with CLONE_NEWUSER, clone3, personality. */
  readonly hardening: boolean;
  /** `network: none|isolated`: socket and socketpair keep AF_UNIX/AF_INET/AF_INET6 only. */
  readonly restrictSocketFamilies: boolean;
}

/** One `jeq` per allowed value of args[0] (its low word) to `allow`; anything else falls to EPERM. */
function allowArg0(label: string, values: readonly number[]): Insn[] {
  return [
    { op: 'label', name: label },
    { op: 'ld', offset: OFF_ARG0_LO },
    ...values.map((k): Insn => ({ op: 'jeq', k, jt: 'allow', jf: NEXT })),
    { op: 'ret', k: SECCOMP_RET_ERRNO | EPERM },
  ];
}

/**
 * Every genswarms filter (docs/runners.md "Seccomp"): kill on another architecture (or the x32 ABI: a socket call
 * there would step around the family rule) and EPERM for the io_uring calls. `hardening` adds EPERM for ptrace and
 * its equivalents, the mount family, keyrings, bpf, perf_event_open, userfaultfd, kexec, modules, setns,
 * unshare/clone with CLONE_NEWUSER and personality other than PER_LINUX, and ENOSYS for clone3 (its flags are
 * behind a pointer, so libc falls back to clone, which is inspected); `restrictSocketFamilies` EPERM for socket and
 * socketpair of any family but AF_UNIX/AF_INET/AF_INET6. Everything else is allowed.
 */
export function filterProgram(opts: FilterOptions): Insn[] {
  const t = SYSCALL_TABLES[opts.arch];
  const n = t.numbers;
  const p: Insn[] = [
    { op: 'ld', offset: OFF_ARCH },
    { op: 'jeq', k: t.auditArch, jt: NEXT, jf: 'kill' },
    { op: 'ld', offset: OFF_NR },
  ];
  if (t.x32Bit !== undefined) p.push({ op: 'jge', k: t.x32Bit, jt: 'kill', jf: NEXT });
  for (const name of opts.hardening ? DENIED_SYSCALLS : URING_SYSCALLS) p.push({ op: 'jeq', k: n[name], jt: 'eperm', jf: NEXT });
  if (opts.hardening) {
    p.push(
      { op: 'jeq', k: n.clone3, jt: 'enosys', jf: NEXT },
      { op: 'jeq', k: n.unshare, jt: 'newuser', jf: NEXT },
      { op: 'jeq', k: n.clone, jt: 'newuser', jf: NEXT },
      { op: 'jeq', k: n.personality, jt: 'persona', jf: NEXT },
    );
  }
  if (opts.restrictSocketFamilies) {
    p.push({ op: 'jeq', k: n.socket, jt: 'family', jf: NEXT }, { op: 'jeq', k: n.socketpair, jt: 'family', jf: NEXT });
  }
  p.push({ op: 'ret', k: SECCOMP_RET_ALLOW });
  if (opts.hardening) {
    p.push(
      { op: 'label', name: 'newuser' },
      { op: 'ld', offset: OFF_ARG0_LO },
      { op: 'jset', k: CLONE_NEWUSER, jt: 'eperm', jf: 'allow' },
      ...allowArg0('persona', ALLOWED_PERSONAS),
    );
  }
  if (opts.restrictSocketFamilies) p.push(...allowArg0('family', ALLOWED_SOCKET_FAMILIES));
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
export function buildSeccompFilter(opts: FilterOptions): Buffer {
  return assembleBpf(filterProgram(opts));
}
