/*
 * Shared declarations of the @genswarms/procctl addon's C files: procctl.c (prctl, pipe, execve, the module's
 * init), spawn-detached.c (posix_spawn on a thread-pool thread) and reaper.c (the exits of spawned children).
 */
#ifndef GENSWARMS_PROCCTL_H
#define GENSWARMS_PROCCTL_H

#include <stdint.h>
#include <sys/types.h>
#include <node_api.h>

napi_value make_int(napi_env env, int v);
char *read_string(napi_env env, napi_value v);
char **read_words(napi_env env, napi_value arr, uint32_t *count);
void free_words(char **words, uint32_t n);

napi_value spawn_detached(napi_env env, napi_callback_info info);
napi_value output_ended(napi_env env, napi_callback_info info);

/* The thread-safe function's call: onExit(pid, code, signal) on the main thread. */
void reaper_call_js(napi_env env, napi_value cb, void *context, void *data);
/* Starts the reaper thread once; 0 or an errno. */
int reaper_ensure(void);
/* Hands a spawned child (not yet reaped by anyone) to the reaper; 0 or -ENOMEM (the caller then ends the child). */
int reaper_register(pid_t pid, int64_t id, napi_threadsafe_function on_exit);
/* The child's output pipe reached its end: is it gone too? */
void reaper_output_ended(int64_t id);
/* A SIGCHLD arrived: look for exited children whose pipe a descendant still holds. */
void reaper_sweep(void);

#endif
