import * as path from 'node:path';

/**
 * Absolute host path of the constant POSIX sh launcher `genswarms-launch` (docs/runners.md).
 * src/lib/launcher and dist/lib/launcher sit at the same depth, so this resolves in both.
 */
export const LAUNCHER_PATH: string = path.resolve(__dirname, '..', '..', '..', 'assets', 'genswarms-launch');
/**
 * The constant `genswarms-cgroup-exec <cgroup.procs> <argv…>`: joins the agent's cgroup, then execs,
 * so nothing the client forks can start outside the group. Same depth rule as LAUNCHER_PATH.
 */
export const CGROUP_EXEC_PATH: string = path.resolve(__dirname, '..', '..', '..', 'assets', 'genswarms-cgroup-exec');
/** genswarms-cgroup-exec exit code: the cgroup could not be joined (the client was not started). */
export const CGROUP_EXEC_EXIT_JOIN = 98;
/** Where sandboxes see the launcher (bound read-only). */
export const SANDBOX_LAUNCHER_PATH = '/run/genswarms/launch';
/** The env file as a sandboxed client sees it (`<state_dir>` is `/root`). */
export const SANDBOX_ENV_FILE = '/root/.genswarms/env';
/** Launcher exit codes (see the script). */
export const LAUNCHER_EXIT_USAGE = 96;
export const LAUNCHER_EXIT_ENV = 95;
export const LAUNCHER_EXIT_EGRESS = 97;
