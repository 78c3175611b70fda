/**
 * The syscall numbers the default filter names, per architecture (x86_64: arch/x86/entry/syscalls/syscall_64.tbl;
 * aarch64: the generic table, include/uapi/asm-generic/unistd.h), and each architecture's AUDIT_ARCH value.
 */
export type SeccompArch = 'x86_64' | 'aarch64';

export const DENIED_SYSCALLS = [
  'ptrace',
  'mount',
  'umount2',
  'pivot_root',
  'open_tree',
  'move_mount',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
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
  // a ring runs socket/connect/openat… as its own operations, which no filter on those syscalls sees
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  // reach into another process as ptrace does
  'process_vm_readv',
  'process_vm_writev',
  'pidfd_getfd',
  'kcmp',
] as const;
export type DeniedSyscall = (typeof DENIED_SYSCALLS)[number];
/** The io_uring calls: refused by every genswarms filter (the network filter too). */
export const URING_SYSCALLS = ['io_uring_setup', 'io_uring_enter', 'io_uring_register'] as const satisfies readonly DeniedSyscall[];
/** Syscalls the filter inspects by argument (or answers ENOSYS: clone3 passes its flags by pointer). */
export type InspectedSyscall = 'unshare' | 'clone' | 'clone3' | 'socket' | 'socketpair' | 'personality';

export interface SyscallTable {
  /** `AUDIT_ARCH_*` from linux/audit.h: seccomp_data.arch. */
  readonly auditArch: number;
  readonly numbers: Readonly<Record<DeniedSyscall | InspectedSyscall, number>>;
  /** x86_64: syscall numbers with this bit set are the x32 ABI (another ABI on the same arch value). */
  readonly x32Bit?: number;
}

export const SYSCALL_TABLES: Readonly<Record<SeccompArch, SyscallTable>> = {
  x86_64: {
    auditArch: 0xc000003e,
    x32Bit: 0x40000000,
    numbers: {
      ptrace: 101,
      mount: 165,
      umount2: 166,
      pivot_root: 155,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      keyctl: 250,
      add_key: 248,
      request_key: 249,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      setns: 308,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      process_vm_readv: 310,
      process_vm_writev: 311,
      pidfd_getfd: 438,
      kcmp: 312,
      unshare: 272,
      clone: 56,
      clone3: 435,
      socket: 41,
      socketpair: 53,
      personality: 135,
    },
  },
  aarch64: {
    auditArch: 0xc00000b7,
    numbers: {
      ptrace: 117,
      mount: 40,
      umount2: 39,
      pivot_root: 41,
      open_tree: 428,
      move_mount: 429,
      fsopen: 430,
      fsconfig: 431,
      fsmount: 432,
      fspick: 433,
      mount_setattr: 442,
      keyctl: 219,
      add_key: 217,
      request_key: 218,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      setns: 268,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      process_vm_readv: 270,
      process_vm_writev: 271,
      pidfd_getfd: 438,
      kcmp: 272,
      unshare: 97,
      clone: 220,
      clone3: 435,
      socket: 198,
      socketpair: 199,
      personality: 92,
    },
  },
};

/** Node's `process.arch` → the filter's architecture; undefined where no table exists (refused at plan). */
export function seccompArchOf(nodeArch: string): SeccompArch | undefined {
  return nodeArch === 'x64' ? 'x86_64' : nodeArch === 'arm64' ? 'aarch64' : undefined;
}
