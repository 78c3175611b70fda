/*
 * @genswarms/procctl native part: the few Linux process controls Node 20 lacks.
 * Every function returns a number: >= 0 on success, -errno on failure (the TypeScript side maps it
 * to a ProcctlError). execve returns only on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <node_api.h>

#define MAX_WORDS 65536
#define MAX_INHERIT_FDS 64

static napi_value make_int(napi_env env, int v) {
  napi_value out;
  napi_create_int32(env, v, &out);
  return out;
}

static int arg_int(napi_env env, napi_callback_info info, size_t want, int32_t *out) {
  size_t argc = want;
  napi_value argv[1];
  if (want > 1) return -EINVAL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < want) return -EINVAL;
  if (want == 0) return 0;
  return napi_get_value_int32(env, argv[0], out) == napi_ok ? 0 : -EINVAL;
}

/* prctl(PR_SET_DUMPABLE, flag): 0 also makes /proc/<pid>/{environ,mem,fd} root-owned. */
static napi_value set_dumpable(napi_env env, napi_callback_info info) {
  int32_t flag = 0;
  int rc = arg_int(env, info, 1, &flag);
  if (rc == 0 && prctl(PR_SET_DUMPABLE, flag ? 1 : 0, 0, 0, 0) != 0) rc = -errno;
  return make_int(env, rc);
}

static napi_value get_dumpable(napi_env env, napi_callback_info info) {
  (void)info;
  int v = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
  return make_int(env, v < 0 ? -errno : v);
}

static napi_value set_child_subreaper(napi_env env, napi_callback_info info) {
  int32_t flag = 0;
  int rc = arg_int(env, info, 1, &flag);
  if (rc == 0 && prctl(PR_SET_CHILD_SUBREAPER, flag ? 1 : 0, 0, 0, 0) != 0) rc = -errno;
  return make_int(env, rc);
}

static napi_value get_child_subreaper(napi_env env, napi_callback_info info) {
  (void)info;
  int v = 0;
  if (prctl(PR_GET_CHILD_SUBREAPER, &v, 0, 0, 0) != 0) return make_int(env, -errno);
  return make_int(env, v);
}

/* pipe2(O_CLOEXEC | O_NONBLOCK): a writer that overfills it gets EAGAIN instead of hanging. */
static napi_value make_pipe(napi_env env, napi_callback_info info) {
  (void)info;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return make_int(env, -errno);
  napi_value arr;
  napi_create_array_with_length(env, 2, &arr);
  napi_set_element(env, arr, 0, make_int(env, fds[0]));
  napi_set_element(env, arr, 1, make_int(env, fds[1]));
  return arr;
}

static void free_words(char **words, uint32_t n) {
  if (words == NULL) return;
  for (uint32_t i = 0; i < n; i++) free(words[i]);
  free(words);
}

/* A JS string[] as a NULL-terminated C array; NULL on any non-string, NUL byte or size cap. */
static char **read_words(napi_env env, napi_value arr, uint32_t *count) {
  uint32_t n = 0;
  bool is_array = false;
  if (napi_is_array(env, arr, &is_array) != napi_ok || !is_array) return NULL;
  if (napi_get_array_length(env, arr, &n) != napi_ok || n > MAX_WORDS) return NULL;
  char **words = calloc((size_t)n + 1, sizeof(char *));
  if (words == NULL) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    size_t len = 0;
    if (napi_get_element(env, arr, i, &item) != napi_ok || napi_get_value_string_utf8(env, item, NULL, 0, &len) != napi_ok) {
      free_words(words, n);
      return NULL;
    }
    words[i] = malloc(len + 1);
    if (words[i] == NULL || napi_get_value_string_utf8(env, item, words[i], len + 1, &len) != napi_ok || strlen(words[i]) != len) {
      free_words(words, n);
      return NULL;
    }
  }
  *count = n;
  return words;
}

/*
 * execve(file, argv, env) keeping exactly the listed fds open across the exec (others stay
 * close-on-exec; stdio is kept). Before the exec: signal mask emptied, SIGPIPE/SIGXFSZ (ignored by Node) back to
 * default, O_NONBLOCK cleared on stdio, as a freshly started process expects.
 */
static napi_value do_execve(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value args[4];
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 4) return make_int(env, -EINVAL);
  size_t flen = 0;
  if (napi_get_value_string_utf8(env, args[0], NULL, 0, &flen) != napi_ok) return make_int(env, -EINVAL);
  char *file = malloc(flen + 1);
  if (file == NULL) return make_int(env, -ENOMEM);
  napi_get_value_string_utf8(env, args[0], file, flen + 1, &flen);
  uint32_t nargv = 0, nenv = 0, nfds = 0;
  char **argv = read_words(env, args[1], &nargv);
  char **envp = read_words(env, args[2], &nenv);
  int fds[MAX_INHERIT_FDS];
  int rc = (argv == NULL || envp == NULL || strlen(file) != flen) ? -EINVAL : 0;
  if (rc == 0 && (napi_get_array_length(env, args[3], &nfds) != napi_ok || nfds > MAX_INHERIT_FDS)) rc = -EINVAL;
  for (uint32_t i = 0; rc == 0 && i < nfds; i++) {
    napi_value item;
    if (napi_get_element(env, args[3], i, &item) != napi_ok || napi_get_value_int32(env, item, &fds[i]) != napi_ok || fds[i] < 0) rc = -EINVAL;
  }
  for (uint32_t i = 0; rc == 0 && i < nfds; i++) {
    int flags = fcntl(fds[i], F_GETFD);
    if (flags < 0 || fcntl(fds[i], F_SETFD, flags & ~FD_CLOEXEC) != 0) rc = -errno;
  }
  if (rc == 0) {
    for (int fd = 0; fd <= 2; fd++) {
      /* Node may mark stdio close-on-exec; the new image must keep its stdio. */
      int fdfl = fcntl(fd, F_GETFD);
      if (fdfl >= 0 && (fdfl & FD_CLOEXEC)) fcntl(fd, F_SETFD, fdfl & ~FD_CLOEXEC);
      int fl = fcntl(fd, F_GETFL);
      if (fl >= 0 && (fl & O_NONBLOCK)) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(file, argv, envp);
    rc = -errno;
    /* Failed: back to what Node had, and the fds close-on-exec again. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    for (uint32_t i = 0; i < nfds; i++) fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  }
  free(file);
  free_words(argv, nargv);
  free_words(envp, nenv);
  return make_int(env, rc);
}

/*
 * spawnDetached(file, argv, env, cwd, onExit) → Promise<[pid, stdoutFd, stderrFd]> (rejects with -errno).
 * posix_spawn (glibc: clone(CLONE_VM | CLONE_VFORK), no copy of the server's page tables) runs on a libuv
 * thread-pool thread, so the main thread never waits for the child's exec. The child: a new session (setsid,
 * as Node's detached: true), stdin /dev/null, stdout and stderr pipes, cwd, an empty signal mask and every
 * signal at its default (Node ignores SIGPIPE and SIGXFSZ). The read ends are close-on-exec.
 * The exit: a pidfd per child in one epoll set, watched by one reaper thread (all signals blocked) that
 * reaps the child with waitid(P_PIDFD) — never waitpid(-1), which would take libuv's own children — and
 * calls onExit(pid, code, signal) on the main thread (code -1 when killed by `signal`, signal 0 otherwise)
 * through a thread-safe function of that child, which keeps the event loop alive until the child exited.
 */
#ifndef P_PIDFD
#define P_PIDFD 3
#endif

typedef struct {
  pid_t pid;
  int pidfd;
  napi_threadsafe_function on_exit;
} watched_child;

typedef struct {
  pid_t pid;
  int code;
  int sig;
} exit_msg;

static int reaper_epfd = -1;
static int reaper_error = 0;
static pthread_once_t reaper_once = PTHREAD_ONCE_INIT;

static void *reaper_main(void *arg) {
  (void)arg;
  struct epoll_event evs[64];
  for (;;) {
    int n = epoll_wait(reaper_epfd, evs, 64, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return NULL;
    }
    for (int i = 0; i < n; i++) {
      watched_child *w = evs[i].data.ptr;
      siginfo_t si;
      memset(&si, 0, sizeof si);
      int r;
      do r = waitid((idtype_t)P_PIDFD, (id_t)w->pidfd, &si, WEXITED); while (r < 0 && errno == EINTR);
      epoll_ctl(reaper_epfd, EPOLL_CTL_DEL, w->pidfd, NULL);
      close(w->pidfd);
      exit_msg *m = malloc(sizeof(exit_msg));
      if (m != NULL) {
        m->pid = w->pid;
        m->code = (r == 0 && si.si_code == CLD_EXITED) ? si.si_status : -1;
        m->sig = (r == 0 && si.si_code != CLD_EXITED) ? si.si_status : 0;
        if (napi_call_threadsafe_function(w->on_exit, m, napi_tsfn_blocking) != napi_ok) free(m);
      }
      napi_release_threadsafe_function(w->on_exit, napi_tsfn_release);
      free(w);
    }
  }
}

static void reaper_start(void) {
  reaper_epfd = epoll_create1(EPOLL_CLOEXEC);
  if (reaper_epfd < 0) {
    reaper_error = errno;
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
  if (rc != 0) reaper_error = rc;
}

static void call_on_exit(napi_env env, napi_value cb, void *context, void *data) {
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

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref on_exit;
  char *file;
  char *cwd;
  char **argv;
  char **envp;
  uint32_t nargv;
  uint32_t nenv;
  int rc;
  pid_t pid;
  int pidfd;
  int out_fd;
  int err_fd;
} spawn_req;

static void spawn_execute(napi_env env, void *data) {
  (void)env;
  spawn_req *req = data;
  int out[2] = {-1, -1}, err[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t none, all;
  req->rc = 0;
  pthread_once(&reaper_once, reaper_start);
  if (reaper_error != 0) {
    req->rc = -reaper_error;
    return;
  }
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    req->rc = -errno;
    if (out[0] >= 0) {
      close(out[0]);
      close(out[1]);
    }
    return;
  }
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  sigemptyset(&none);
  /* every signal, glibc's internal ones too (sigfillset leaves those out, and spawn would then ignore them) */
  memset(&all, 0xff, sizeof all);
  int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  if (rc == 0) rc = posix_spawn_file_actions_addchdir_np(&fa, req->cwd);
  if (rc == 0) rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (rc == 0) rc = posix_spawnattr_setsigmask(&attr, &none);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(&attr, &all);
  if (rc == 0) rc = posix_spawn(&req->pid, req->file, &fa, &attr, req->argv, req->envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  close(err[1]);
  if (rc == 0) {
    /* race-free: nobody else reaps this pid (libuv waits only for its own children) */
    req->pidfd = (int)syscall(SYS_pidfd_open, req->pid, 0);
    if (req->pidfd < 0) {
      rc = errno;
      kill(req->pid, SIGKILL);
      waitpid(req->pid, NULL, 0);
    }
  }
  if (rc != 0) {
    close(out[0]);
    close(err[0]);
    req->rc = -rc;
    return;
  }
  req->out_fd = out[0];
  req->err_fd = err[0];
}

static void spawn_complete(napi_env env, napi_status status, void *data) {
  spawn_req *req = data;
  if (status != napi_ok && req->rc == 0) req->rc = -ECANCELED;
  watched_child *w = NULL;
  if (req->rc == 0) {
    napi_value cb, name;
    w = calloc(1, sizeof(watched_child));
    napi_get_reference_value(env, req->on_exit, &cb);
    napi_create_string_utf8(env, "procctl.childExit", NAPI_AUTO_LENGTH, &name);
    if (w == NULL || napi_create_threadsafe_function(env, cb, NULL, name, 0, 1, NULL, NULL, NULL, call_on_exit, &w->on_exit) != napi_ok) {
      req->rc = -ENOMEM;
    } else {
      w->pid = req->pid;
      w->pidfd = req->pidfd;
      struct epoll_event ev;
      ev.events = EPOLLIN | EPOLLONESHOT;
      ev.data.ptr = w;
      if (epoll_ctl(reaper_epfd, EPOLL_CTL_ADD, w->pidfd, &ev) != 0) {
        req->rc = -errno;
        napi_release_threadsafe_function(w->on_exit, napi_tsfn_abort);
      }
    }
    if (req->rc != 0) {
      /* unwatched: end it here rather than leave a child nobody reaps */
      kill(req->pid, SIGKILL);
      waitpid(req->pid, NULL, 0);
      close(req->pidfd);
      close(req->out_fd);
      close(req->err_fd);
      free(w);
    }
  }
  if (req->rc == 0) {
    napi_value arr;
    napi_create_array_with_length(env, 3, &arr);
    napi_set_element(env, arr, 0, make_int(env, req->pid));
    napi_set_element(env, arr, 1, make_int(env, req->out_fd));
    napi_set_element(env, arr, 2, make_int(env, req->err_fd));
    napi_resolve_deferred(env, req->deferred, arr);
  } else {
    napi_reject_deferred(env, req->deferred, make_int(env, req->rc));
  }
  napi_delete_reference(env, req->on_exit);
  napi_delete_async_work(env, req->work);
  free(req->file);
  free(req->cwd);
  free_words(req->argv, req->nargv);
  free_words(req->envp, req->nenv);
  free(req);
}

static char *read_string(napi_env env, napi_value v) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (s == NULL) return NULL;
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  if (strlen(s) != len) {
    free(s);
    return NULL;
  }
  return s;
}

static napi_value spawn_detached(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value args[5];
  napi_valuetype cbtype = napi_undefined;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 5 || napi_typeof(env, args[4], &cbtype) != napi_ok ||
      cbtype != napi_function)
    return make_int(env, -EINVAL);
  spawn_req *req = calloc(1, sizeof(spawn_req));
  if (req == NULL) return make_int(env, -ENOMEM);
  req->file = read_string(env, args[0]);
  req->argv = read_words(env, args[1], &req->nargv);
  req->envp = read_words(env, args[2], &req->nenv);
  req->cwd = read_string(env, args[3]);
  if (req->file == NULL || req->argv == NULL || req->envp == NULL || req->cwd == NULL || req->file[0] != '/') {
    free(req->file);
    free(req->cwd);
    free_words(req->argv, req->nargv);
    free_words(req->envp, req->nenv);
    free(req);
    return make_int(env, -EINVAL);
  }
  napi_value promise, name;
  napi_create_reference(env, args[4], 1, &req->on_exit);
  napi_create_promise(env, &req->deferred, &promise);
  napi_create_string_utf8(env, "procctl.spawnDetached", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, spawn_execute, spawn_complete, req, &req->work);
  napi_queue_async_work(env, req->work);
  return promise;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"setDumpable", NULL, set_dumpable, NULL, NULL, NULL, napi_default, NULL},
      {"getDumpable", NULL, get_dumpable, NULL, NULL, NULL, napi_default, NULL},
      {"setChildSubreaper", NULL, set_child_subreaper, NULL, NULL, NULL, napi_default, NULL},
      {"getChildSubreaper", NULL, get_child_subreaper, NULL, NULL, NULL, napi_default, NULL},
      {"pipe", NULL, make_pipe, NULL, NULL, NULL, napi_default, NULL},
      {"execve", NULL, do_execve, NULL, NULL, NULL, napi_default, NULL},
      {"spawnDetached", NULL, spawn_detached, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
