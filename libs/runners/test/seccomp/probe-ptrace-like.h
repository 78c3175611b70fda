/*
 * Part of seccomp-probe.c: calls that read or change another process as ptrace would (process_vm_readv/writev,
 * pidfd_getfd, kcmp), each aimed at the probe itself so only a filter can refuse it, and personality.
 */
static void report_ptrace_like(void) {
  char src[8] = "genswar", dst[8];
  struct iovec local = {dst, sizeof dst}, remote = {src, sizeof src};
  errno = 0; report("process_vm_readv", syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0));
  errno = 0; report("process_vm_writev", syscall(SYS_process_vm_writev, getpid(), &local, 1, &remote, 1, 0));
  long pidfd = syscall(434 /* pidfd_open */, getpid(), 0);
  long fd = pidfd < 0 ? pidfd : syscall(438 /* pidfd_getfd */, pidfd, 1, 0);
  report("pidfd_getfd", fd);
  if (fd >= 0) close((int)fd);
  if (pidfd >= 0) close((int)pidfd);
  errno = 0; report("kcmp", syscall(SYS_kcmp, getpid(), getpid(), 0 /* KCMP_FILE */, 1, 1));
  errno = 0; report("personality_query", syscall(SYS_personality, 0xffffffffUL));
  errno = 0; report("personality_linux", syscall(SYS_personality, 0));
  errno = 0; report("personality_read_implies_exec", syscall(SYS_personality, 0x0400000 /* READ_IMPLIES_EXEC */));
  syscall(SYS_personality, 0);
}
