/*
 * The exits of the children spawnDetached started, with no descriptor per running child: one reaper thread (all
 * signals blocked) owns the table of unreaped children and is the only caller of waitid for them, always for one
 * pid (P_PID or P_PIDFD) — never waitpid(-1) / P_ALL, which would take libuv's own children. A pid in the table
 * is our unreaped child, so it cannot be reused while we look at it. Three things make it look:
 *   - registration: a child that exited before it was registered is found at once;
 *   - its output pipe's end (outputEnded): waitid(P_PID, WNOHANG); a child that closed its output but still runs
 *     gets a pidfd only then (the pipe's descriptor is gone by that time, so it still costs one);
 *   - a SIGCHLD (spawn-detached.c watches it): waitid(P_PID, WNOHANG) on every child without a pidfd, at most once per
 *     SWEEP_MIN_INTERVAL_MS, for a child that exited while a descendant keeps its pipe open.
 * Idle, nothing runs: no per-child timer or poll.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "procctl.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* A burst of exits costs one sweep of the table per this many milliseconds. */
#define SWEEP_MIN_INTERVAL_MS 200

typedef struct {
  pid_t pid;
  int64_t id;
  int pidfd; /* -1 until the output ended while the child still ran */
  size_t index;
  napi_threadsafe_function on_exit;
} child_entry;

typedef struct request {
  child_entry *entry; /* a registration, or NULL: the output of child `id` ended */
  int64_t id;
  struct request *next;
} request;

typedef struct {
  pid_t pid;
  int code;
  int sig;
} exit_msg;

static int reaper_epfd = -1;
static int wake_fd = -1;
static int start_error = 0;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static request *queue_head = NULL;
static request *queue_tail = NULL;
static int sweep_wanted = 0;

/* The reaper thread's own. */
static child_entry **children = NULL;
static size_t nchildren = 0;
static size_t capchildren = 0;

void reaper_call_js(napi_env env, napi_value cb, void *context, void *data) {
  (void)context;
  exit_msg *m = data;
  if (env != NULL && cb != NULL) {
    napi_value undef, args[3];
    napi_get_undefined(env, &undef);
    args[0] = make_int(env, m->pid);
    args[1] = make_int(env, m->code);
    args[2] = make_int(env, m->sig);
    napi_call_function(env, undef, cb, 3, args, NULL);
  }
  free(m);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void wake(void) {
  uint64_t one = 1;
  ssize_t n;
  do n = write(wake_fd, &one, sizeof one); while (n < 0 && errno == EINTR);
}

static void enqueue(request *r) {
  pthread_mutex_lock(&queue_lock);
  if (queue_tail != NULL) queue_tail->next = r;
  else queue_head = r;
  queue_tail = r;
  pthread_mutex_unlock(&queue_lock);
  wake();
}

/* onExit called with what the waitid that reaped the child (r, si) said; the entry freed. */
static void notify(child_entry *c, int r, const siginfo_t *si) {
  exit_msg *m = malloc(sizeof(exit_msg));
  if (m != NULL) {
    m->pid = c->pid;
    m->code = (r == 0 && si->si_code == CLD_EXITED) ? si->si_status : -1;
    m->sig = (r == 0 && si->si_code != CLD_EXITED) ? si->si_status : 0;
    if (napi_call_threadsafe_function(c->on_exit, m, napi_tsfn_blocking) != napi_ok) free(m);
  }
  napi_release_threadsafe_function(c->on_exit, napi_tsfn_release);
  free(c);
}

/* Out of the table, its pidfd closed, then notify. */
static void report(child_entry *c, int r, const siginfo_t *si) {
  child_entry *last = children[nchildren - 1];
  children[c->index] = last;
  last->index = c->index;
  nchildren -= 1;
  if (c->pidfd >= 0) {
    epoll_ctl(reaper_epfd, EPOLL_CTL_DEL, c->pidfd, NULL);
    close(c->pidfd);
  }
  notify(c, r, si);
}

/* Reaps the child if it exited (1), else 0. ECHILD (someone else reaped it) is reported as an exit too. */
static int try_reap(child_entry *c) {
  siginfo_t si;
  int r;
  memset(&si, 0, sizeof si);
  do r = waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG); while (r < 0 && errno == EINTR);
  if (r == 0 && si.si_pid == 0) return 0;
  report(c, r, &si);
  return 1;
}

static void add_child(child_entry *c) {
  if (nchildren == capchildren) {
    size_t cap = capchildren == 0 ? 64 : capchildren * 2;
    child_entry **grown = realloc(children, cap * sizeof(child_entry *));
    if (grown == NULL) {
      /* cannot track it: end it rather than leave a child nobody reaps */
      siginfo_t si;
      int r;
      memset(&si, 0, sizeof si);
      kill(c->pid, SIGKILL);
      do r = waitid(P_PID, (id_t)c->pid, &si, WEXITED); while (r < 0 && errno == EINTR);
      notify(c, r, &si);
      return;
    }
    children = grown;
    capchildren = cap;
  }
  c->index = nchildren++;
  children[c->index] = c;
  try_reap(c);
}

static void output_ended_of(int64_t id) {
  for (size_t i = 0; i < nchildren; i++) {
    child_entry *c = children[i];
    if (c->id != id) continue;
    if (c->pidfd >= 0 || try_reap(c)) return;
    int fd = (int)syscall(SYS_pidfd_open, c->pid, 0);
    if (fd < 0) return; /* out of descriptors: the SIGCHLD sweep still finds its exit */
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN;
    ev.data.ptr = c;
    if (epoll_ctl(reaper_epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
      close(fd);
      return;
    }
    c->pidfd = fd;
    try_reap(c); /* it may have exited between the first look and the pidfd */
    return;
  }
}

/* Takes the queued requests; returns whether a sweep was asked for. */
static int take_requests(void) {
  uint64_t count;
  ssize_t n;
  do n = read(wake_fd, &count, sizeof count); while (n < 0 && errno == EINTR);
  pthread_mutex_lock(&queue_lock);
  request *r = queue_head;
  int sweep = sweep_wanted;
  queue_head = queue_tail = NULL;
  sweep_wanted = 0;
  pthread_mutex_unlock(&queue_lock);
  while (r != NULL) {
    request *next = r->next;
    if (r->entry != NULL) add_child(r->entry);
    else output_ended_of(r->id);
    free(r);
    r = next;
  }
  return sweep;
}

static void sweep(void) {
  for (size_t i = nchildren; i > 0; i--) {
    child_entry *c = children[i - 1];
    if (c->pidfd < 0) try_reap(c); /* a child with a pidfd is reaped through it */
  }
}

static void *reaper_main(void *arg) {
  (void)arg;
  struct epoll_event evs[64];
  int64_t last_sweep = now_ms() - SWEEP_MIN_INTERVAL_MS;
  int sweep_pending = 0;
  for (;;) {
    int timeout = -1;
    if (sweep_pending) {
      int64_t left = last_sweep + SWEEP_MIN_INTERVAL_MS - now_ms();
      timeout = left > 0 ? (int)left : 0;
    }
    int n = epoll_wait(reaper_epfd, evs, 64, timeout);
    if (n < 0 && errno != EINTR) return NULL;
    for (int i = 0; i < n; i++) {
      child_entry *c = evs[i].data.ptr;
      if (c == NULL) {
        sweep_pending |= take_requests();
        continue;
      }
      /* readable pidfd: the child exited; only this thread reaps it, so the wait is short */
      siginfo_t si;
      int r;
      memset(&si, 0, sizeof si);
      do r = waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &si, WEXITED); while (r < 0 && errno == EINTR);
      report(c, r, &si);
    }
    if (sweep_pending && now_ms() - last_sweep >= SWEEP_MIN_INTERVAL_MS) {
      sweep();
      last_sweep = now_ms();
      sweep_pending = 0;
    }
  }
}

static void reaper_start(void) {
  reaper_epfd = epoll_create1(EPOLL_CLOEXEC);
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = EPOLLIN;
  ev.data.ptr = NULL;
  if (reaper_epfd < 0 || wake_fd < 0 || epoll_ctl(reaper_epfd, EPOLL_CTL_ADD, wake_fd, &ev) != 0) {
    start_error = errno;
    return;
  }
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_t t;
  pthread_attr_t ta;
  pthread_attr_init(&ta);
  pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&ta, 64 * 1024);
  int rc = pthread_create(&t, &ta, reaper_main, NULL);
  pthread_attr_destroy(&ta);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) start_error = rc;
}

int reaper_ensure(void) {
  pthread_once(&start_once, reaper_start);
  return start_error;
}

int reaper_register(pid_t pid, int64_t id, napi_threadsafe_function on_exit) {
  child_entry *c = calloc(1, sizeof(child_entry));
  request *r = calloc(1, sizeof(request));
  if (c == NULL || r == NULL) {
    free(c);
    free(r);
    return -ENOMEM;
  }
  c->pid = pid;
  c->id = id;
  c->pidfd = -1;
  c->on_exit = on_exit;
  r->entry = c;
  enqueue(r);
  return 0;
}

void reaper_output_ended(int64_t id) {
  request *r = calloc(1, sizeof(request));
  if (r == NULL) return; /* the SIGCHLD sweep still finds the exit */
  r->id = id;
  enqueue(r);
}

void reaper_sweep(void) {
  if (reaper_ensure() != 0) return;
  pthread_mutex_lock(&queue_lock);
  sweep_wanted = 1;
  pthread_mutex_unlock(&queue_lock);
  wake();
}
