/*
 * Runs inside a sandbox (bwrap or a container; compiled by the spec with gcc, static for containers): tries each
 * call a genswarms seccomp filter denies, and a few it allows, and writes {"name": errno-or-0-or-"signal:N", ...}
 * as JSON to argv[1]. Calls that change the probe itself (unshare, clone) run in a forked child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static FILE *out;
static int first = 1;

static void report(const char *name, long rc) {
  fprintf(out, "%s\"%s\": %d", first ? "" : ", ", name, rc < 0 ? errno : 0);
  first = 0;
}

#include "probe-uring.h"
#include "probe-ptrace-like.h"

/* In a child: 0 on a clean exit, the errno it exited with, or "signal:N" when killed. */
static void in_child(const char *name, int what) {
  pid_t pid = fork();
  if (pid == 0) {
    long rc = 0;
    if (what == 0) rc = syscall(SYS_unshare, CLONE_NEWUSER);
    if (what == 1) {
      rc = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
      if (rc == 0) _exit(0);
      if (rc > 0) waitpid((pid_t)rc, NULL, 0);
    }
    if (what == 2) rc = syscall(0x40000000 | SYS_getpid); /* the x32 ABI: another ABI, same arch value */
#if defined(__x86_64__)
    if (what == 3) {
      long r;
      __asm__ volatile("int $0x80" : "=a"(r) : "a"(20) : "memory"); /* i386 getpid: another architecture */
      rc = r < 0 ? (errno = (int)-r, -1) : 0;
    }
    if (what == 4 || what == 5) { /* an AF_VSOCK socket through the i386 ABI: socket (359), or socketcall (102) */
      unsigned *args = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
      long r = -ENOMEM;
      if (args != MAP_FAILED) {
        args[0] = 40; args[1] = SOCK_STREAM; args[2] = 0;
        if (what == 4) __asm__ volatile("int $0x80" : "=a"(r) : "a"(359), "b"(40), "c"(SOCK_STREAM), "d"(0) : "memory");
        else __asm__ volatile("int $0x80" : "=a"(r) : "a"(102), "b"(1 /* SYS_SOCKET */), "c"(args) : "memory");
      }
      rc = r < 0 ? (errno = (int)-r, -1) : 0;
    }
#endif
    _exit(rc < 0 ? errno : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) fprintf(out, "%s\"%s\": \"signal:%d\"", first ? "" : ", ", name, WTERMSIG(status));
  else fprintf(out, "%s\"%s\": %d", first ? "" : ", ", name, WEXITSTATUS(status));
  first = 0;
}

int main(int argc, char **argv) {
  if (getuid() == 0) return 3; /* only ever inside the sandbox (uid 1000): never tries mount or keyrings as root */
  if (argc < 2 || (out = fopen(argv[1], "w")) == NULL) return 2;
  fputs("{", out);
  errno = 0; report("ptrace", syscall(SYS_ptrace, 2 /* PEEKDATA */, getpid(), 0, 0));
  errno = 0; report("mount", syscall(SYS_mount, "none", "/nonexistent-gs-probe", "tmpfs", 0, 0));
  errno = 0; report("umount2", syscall(SYS_umount2, "/nonexistent-gs-probe", 0));
  errno = 0; report("keyctl", syscall(SYS_keyctl, 0 /* GET_KEYRING_ID */, -3 /* session */, 0));
  errno = 0; report("add_key", syscall(SYS_add_key, "user", "gs-probe", "v", 1, -3));
  errno = 0; report("request_key", syscall(SYS_request_key, "user", "gs-probe", 0, 0));
  errno = 0; report("bpf", syscall(SYS_bpf, 5, 0, 0));
  errno = 0; report("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
  errno = 0; report("userfaultfd", syscall(SYS_userfaultfd, 0));
  errno = 0; report("kexec_load", syscall(SYS_kexec_load, 0, 0, 0, 0));
  errno = 0; report("kexec_file_load", syscall(SYS_kexec_file_load, -1, -1, 0, 0, 0));
  errno = 0; report("init_module", syscall(SYS_init_module, 0, 0, ""));
  errno = 0; report("finit_module", syscall(SYS_finit_module, -1, "", 0));
  errno = 0; report("delete_module", syscall(SYS_delete_module, "gs_probe", 0));
  errno = 0; report("setns", syscall(SYS_setns, -1, 0));
  errno = 0; report("clone3", syscall(435, 0, 0));
  errno = 0; report("socket_netlink", syscall(SYS_socket, 16 /* AF_NETLINK */, SOCK_RAW, 0));
  errno = 0; report("socket_unix", syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0));
  errno = 0; report("socket_inet", syscall(SYS_socket, AF_INET, SOCK_STREAM, 0));
  errno = 0; report("socket_inet6", syscall(SYS_socket, AF_INET6, SOCK_STREAM, 0));
  errno = 0; report("socket_vsock", syscall(SYS_socket, 40 /* AF_VSOCK */, SOCK_STREAM, 0));
  report_socketpairs();
  report_uring();
  report_ptrace_like();
  in_child("unshare_newuser", 0);
  in_child("clone_newuser", 1);
  in_child("x32_getpid", 2);
#if defined(__x86_64__)
  in_child("i386_getpid", 3);
  in_child("i386_socket_vsock", 4);
  in_child("i386_socketcall_vsock", 5);
#endif
  errno = 0; report("fork", (long)fork() == 0 ? (_exit(0), 0) : (wait(NULL), 0));
  fputs("}\n", out);
  fclose(out);
  return 0;
}
