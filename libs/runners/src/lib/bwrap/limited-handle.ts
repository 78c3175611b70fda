import type { ExitInfo, RunnerHandle } from '../port';
import { prepareLimitGroup, removeLimitGroup, wasOomKilled, type AgentLimitGroup } from '../cgroup/agent-limits';

/** A sandbox's limit group around its handle: the exit reason is read from the group before stop removes it. */
export interface LimitedSession {
  readonly group: AgentLimitGroup | undefined;
  /** Exit listeners get `{ reason: 'oom_killed' }` when the group's OOM killer fired. */
  wrap(handle: RunnerHandle): RunnerHandle;
  /** Start: kills what a previous instance left, (re)creates the group and writes the limits. */
  prepare(): Promise<void>;
  /** Cleanup: reads the OOM counter once, then kills what is left and removes the group. */
  remove(): Promise<void>;
}

export function withLimitGroup(group: AgentLimitGroup | undefined): LimitedSession {
  let info: Promise<ExitInfo> | undefined;
  let removal: Promise<void> | undefined;
  // Memoised: the first caller (the cleanup or an exit listener) reads the counter while the group still exists.
  const exitInfo = (): Promise<ExitInfo> =>
    (info ??= group === undefined ? Promise.resolve({}) : wasOomKilled(group).then((oom) => (oom ? { reason: 'oom_killed' } : {})));
  return {
    group,
    wrap: (handle) =>
      group === undefined
        ? handle
        : {
            ...handle,
            onExit: (listener) =>
              handle.onExit((code, signal) => {
                void exitInfo()
                  .catch(() => ({})) // best-effort: an unreadable counter reports the plain exit
                  .then((i) => listener(code, signal, i));
              }),
          },
    prepare: async () => {
      if (group !== undefined) await prepareLimitGroup(group);
    },
    // Once: stop and the exit listener both clean up; two removals racing would read a group mid-rmdir.
    remove: () =>
      (removal ??=
        group === undefined
          ? Promise.resolve()
          : exitInfo()
              .catch(() => undefined) // best-effort: the counter only names the reason, removal must go on
              .then(() => removeLimitGroup(group))),
  };
}
