/*
 * @genswarms/procctl native part: the few Linux process controls Node 20 lacks.
 * Every function returns a number: >= 0 on success, -errno on failure (the TypeScript side maps it
 * to a ProcctlError). execve returns only on failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "procctl.h"

#define MAX_WORDS 65536
#define MAX_INHERIT_FDS 64

napi_value make_int(napi_env env, int v) {
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

void free_words(char **words, uint32_t n) {
  if (words == NULL) return;
  for (uint32_t i = 0; i < n; i++) free(words[i]);
  free(words);
}

/* A JS string[] as a NULL-terminated C array; NULL on any non-string, NUL byte or size cap. */
char **read_words(napi_env env, napi_value arr, uint32_t *count) {
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

/* A JS string as a C string; NULL when it is not a string or holds a NUL byte. */
char *read_string(napi_env env, napi_value v) {
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

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"setDumpable", NULL, set_dumpable, NULL, NULL, NULL, napi_default, NULL},
      {"getDumpable", NULL, get_dumpable, NULL, NULL, NULL, napi_default, NULL},
      {"setChildSubreaper", NULL, set_child_subreaper, NULL, NULL, NULL, napi_default, NULL},
      {"getChildSubreaper", NULL, get_child_subreaper, NULL, NULL, NULL, napi_default, NULL},
      {"pipe", NULL, make_pipe, NULL, NULL, NULL, napi_default, NULL},
      {"execve", NULL, do_execve, NULL, NULL, NULL, napi_default, NULL},
      {"spawnDetached", NULL, spawn_detached, NULL, NULL, NULL, napi_default, NULL},
      {"outputEnded", NULL, output_ended, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
