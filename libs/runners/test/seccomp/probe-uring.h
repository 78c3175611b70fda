/*
 * Part of seccomp-probe.c: the io_uring calls, and what a ring can do when they pass — IORING_OP_SOCKET creates a
 * socket without the socket(2) syscall, so a filter on socket's family alone never sees it. No liburing: the
 * three rings are mapped by hand. `uring_socket_*` reports the setup's errno when setup itself is refused.
 */
static long uring_socket(int family, int type) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  long fd = syscall(425 /* io_uring_setup */, 4, &p);
  if (fd < 0) return -1;
  size_t sq_bytes = p.sq_off.array + p.sq_entries * sizeof(unsigned);
  size_t cq_bytes = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
  if (cq_bytes > sq_bytes) sq_bytes = cq_bytes;
  char *ring = mmap(NULL, sq_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, (int)fd, IORING_OFF_SQ_RING);
  struct io_uring_sqe *sqes =
      mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, (int)fd, IORING_OFF_SQES);
  if (ring == MAP_FAILED || sqes == MAP_FAILED || !(p.features & IORING_FEAT_SINGLE_MMAP)) {
    close((int)fd);
    errno = ENOTSUP;
    return -1;
  }
  unsigned *tail = (unsigned *)(ring + p.sq_off.tail);
  unsigned idx = *tail & *(unsigned *)(ring + p.sq_off.ring_mask);
  memset(&sqes[idx], 0, sizeof sqes[idx]);
  sqes[idx].opcode = IORING_OP_SOCKET;
  sqes[idx].fd = family; /* io_uring_prep_socket: fd = domain, off = type, len = protocol */
  sqes[idx].off = (unsigned)type;
  ((unsigned *)(ring + p.sq_off.array))[idx] = idx;
  __atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
  long rc = syscall(426 /* io_uring_enter */, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0);
  if (rc < 0) {
    int e = errno;
    close((int)fd);
    errno = e;
    return -1;
  }
  unsigned head = *(unsigned *)(ring + p.cq_off.head) & *(unsigned *)(ring + p.cq_off.ring_mask);
  int res = ((struct io_uring_cqe *)(ring + p.cq_off.cqes))[head].res;
  close((int)fd);
  if (res < 0) {
    errno = -res;
    return -1;
  }
  close(res);
  return 0;
}

static void report_uring(void) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  errno = 0;
  long fd = syscall(425 /* io_uring_setup */, 1, &p);
  report("io_uring_setup", fd);
  if (fd >= 0) close((int)fd);
  errno = 0; report("io_uring_enter", syscall(426, -1, 0, 0, 0, NULL, 0));
  errno = 0; report("io_uring_register", syscall(427, -1, 0, NULL, 0));
  errno = 0; report("uring_socket_netlink", uring_socket(16 /* AF_NETLINK */, SOCK_RAW));
  errno = 0; report("uring_socket_vsock", uring_socket(40 /* AF_VSOCK */, SOCK_STREAM));
}

static void report_socketpairs(void) {
  int sv[2];
  long rc;
  errno = 0; rc = syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv);
  report("socketpair_unix", rc);
  if (rc == 0) { close(sv[0]); close(sv[1]); }
  errno = 0; report("socketpair_vsock", syscall(SYS_socketpair, 40, SOCK_STREAM, 0, sv));
  errno = 0; report("socketpair_netlink", syscall(SYS_socketpair, 16, SOCK_RAW, 0, sv));
}
