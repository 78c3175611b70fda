/*
 * spawnDetached(file, argv, env, cwd, onExit) → Promise<[pid, outputFd, id]> (rejects with -errno).
 * posix_spawn (glibc: clone(CLONE_VM | CLONE_VFORK), no copy of the server's page tables) runs on a libuv
 * thread-pool thread, so the main thread never waits for the child's exec. The child: a new session (setsid,
 * as Node's detached: true), stdin /dev/null, stdout AND stderr on one pipe (the server holds one descriptor per
 * child: its read end, close-on-exec), cwd, an empty signal mask and every signal at its default (Node ignores
 * SIGPIPE and SIGXFSZ). The child then belongs to the reaper (reaper.c), which calls onExit(pid, code, signal) on
 * the main thread through a thread-safe function of that child (code -1 when killed by `signal`, signal 0
 * otherwise); the function keeps the event loop alive until the child exited. `id` names the child in
 * outputEnded(id): unlike a pid, it is never reused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>
#include "procctl.h"

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
  int out_fd;
} spawn_req;

/* Main thread only. */
static int64_t next_child_id = 1;

static void on_sigchld(uv_signal_t *handle, int signum) {
  (void)handle;
  (void)signum;
  reaper_sweep();
}

static void free_handle(uv_handle_t *handle) {
  free(handle);
}

static void stop_sigchld_watch(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  uv_close((uv_handle_t *)data, free_handle);
}

/*
 * Every SIGCHLD of this process asks the reaper for a sweep: a libuv signal watcher beside libuv's own (Node's
 * child_process keeps reaping its children), one per Node environment, unreferenced (it never keeps the loop
 * alive). Watched in C, not through process.on('SIGCHLD'), so a stand-in `process` (a test runner's) cannot
 * swallow it. 0 or -errno.
 */
static int watch_sigchld(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) == napi_ok && data != NULL) return 0;
  uv_loop_t *loop = NULL;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok || loop == NULL) return -EINVAL;
  uv_signal_t *sig = calloc(1, sizeof(uv_signal_t));
  if (sig == NULL) return -ENOMEM;
  int rc = uv_signal_init(loop, sig);
  if (rc != 0) {
    free(sig);
    return rc;
  }
  rc = uv_signal_start(sig, on_sigchld, SIGCHLD);
  if (rc != 0 || napi_set_instance_data(env, sig, stop_sigchld_watch, NULL) != napi_ok) {
    uv_close((uv_handle_t *)sig, free_handle);
    return rc != 0 ? rc : -ENOMEM;
  }
  uv_unref((uv_handle_t *)sig);
  return 0;
}

static void spawn_execute(napi_env env, void *data) {
  (void)env;
  spawn_req *req = data;
  int out[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t none, all;
  req->rc = -reaper_ensure();
  if (req->rc != 0) return;
  if (pipe2(out, O_CLOEXEC) != 0) {
    req->rc = -errno;
    return;
  }
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  sigemptyset(&none);
  /* every signal, glibc's internal ones too (sigfillset leaves those out, and spawn would then ignore them) */
  memset(&all, 0xff, sizeof all);
  int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  if (rc == 0) rc = posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  if (rc == 0) rc = posix_spawn_file_actions_addchdir_np(&fa, req->cwd);
  if (rc == 0) rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (rc == 0) rc = posix_spawnattr_setsigmask(&attr, &none);
  if (rc == 0) rc = posix_spawnattr_setsigdefault(&attr, &all);
  if (rc == 0) rc = posix_spawn(&req->pid, req->file, &fa, &attr, req->argv, req->envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    req->rc = -rc;
    return;
  }
  req->out_fd = out[0];
}

static void spawn_complete(napi_env env, napi_status status, void *data) {
  spawn_req *req = data;
  int64_t id = next_child_id++;
  if (status != napi_ok && req->rc == 0) req->rc = -ECANCELED;
  if (req->rc == 0) {
    napi_value cb, name;
    napi_threadsafe_function on_exit;
    napi_get_reference_value(env, req->on_exit, &cb);
    napi_create_string_utf8(env, "procctl.childExit", NAPI_AUTO_LENGTH, &name);
    if (napi_create_threadsafe_function(env, cb, NULL, name, 0, 1, NULL, NULL, NULL, reaper_call_js, &on_exit) != napi_ok) {
      req->rc = -ENOMEM;
    } else if (reaper_register(req->pid, id, on_exit) != 0) {
      req->rc = -ENOMEM;
      napi_release_threadsafe_function(on_exit, napi_tsfn_abort);
    }
    if (req->rc != 0) {
      /* nobody would reap it: end it here */
      kill(req->pid, SIGKILL);
      waitpid(req->pid, NULL, 0);
      close(req->out_fd);
    }
  }
  if (req->rc == 0) {
    napi_value arr, idv;
    napi_create_array_with_length(env, 3, &arr);
    napi_create_int64(env, id, &idv);
    napi_set_element(env, arr, 0, make_int(env, req->pid));
    napi_set_element(env, arr, 1, make_int(env, req->out_fd));
    napi_set_element(env, arr, 2, idv);
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

napi_value spawn_detached(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value args[5];
  napi_valuetype cbtype = napi_undefined;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 5 || napi_typeof(env, args[4], &cbtype) != napi_ok ||
      cbtype != napi_function)
    return make_int(env, -EINVAL);
  /* before the child exists: its SIGCHLD must not be missed */
  int watching = watch_sigchld(env);
  if (watching != 0) return make_int(env, watching);
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

/* outputEnded(id): the child's output pipe reached its end (or was closed by the server). */
napi_value output_ended(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value args[1];
  int64_t id = 0;
  if (napi_get_cb_info(env, info, &argc, args, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_int64(env, args[0], &id) != napi_ok)
    return make_int(env, -EINVAL);
  reaper_output_ended(id);
  return make_int(env, 0);
}
