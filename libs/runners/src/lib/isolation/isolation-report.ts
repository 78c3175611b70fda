/** What a running agent's process can really do, read from /proc (docs/runners.md "Effective isolation"). */
export const NAMESPACE_KINDS = ['cgroup', 'ipc', 'mnt', 'net', 'pid', 'user', 'uts'] as const;
export type NamespaceKind = (typeof NAMESPACE_KINDS)[number];

/** `host`: the server's network namespace; `loopback`: its own with only `lo`; `none`: no interface; `own`: its own with others. */
export type NetworkReach = 'host' | 'loopback' | 'none' | 'own';
export type SeccompMode = 'disabled' | 'strict' | 'filter';

export interface IsolationLimits {
  readonly memory_bytes?: number;
  readonly pids?: number;
  /** CPUs (quota / period). */
  readonly cpu?: number;
}

export interface IsolationMounts {
  /** How the workspace is mounted where the client sees it (`/workspace` in a sandbox, else the host path). */
  readonly workspace: 'rw' | 'ro' | 'absent';
  /** The state dir (the client's HOME: `/root` in a sandbox). */
  readonly state_dir: 'rw' | 'ro' | 'absent';
  /** The process's `/` is the server's root filesystem (host binaries and configuration visible). */
  readonly host_root_visible: boolean;
}

export interface DockerFacts {
  readonly network_mode: string;
  readonly cap_drop: readonly string[];
  readonly security_opt: readonly string[];
  readonly readonly_rootfs: boolean;
}

export interface IsolationDifference {
  readonly field: string;
  readonly expected: string;
  readonly actual: string;
}

/** Computed from the live process, never from the config; `differences` = what contradicts the plan. */
export interface IsolationReport {
  readonly verified_at: string;
  /** The process inspected: the client inside the boundary (or the host client). */
  readonly pid: number;
  /** (additive) The process's real uid and gid on the host: the agent's own identity (docs/security.md "One identity per agent"). */
  readonly uid?: number;
  readonly gid?: number;
  /** Namespaces it does not share with the server. */
  readonly namespaces: readonly NamespaceKind[];
  readonly no_new_privs: boolean;
  readonly seccomp: SeccompMode;
  readonly network: NetworkReach;
  /** `network: isolated`: where the host forwarder is pinned (`host:port`). */
  readonly egress?: string;
  /** cgroup limits in force on the process. */
  readonly limits: IsolationLimits;
  readonly mounts: IsolationMounts;
  /** Bypass flags on the live argv. */
  readonly bypass_flags: readonly string[];
  /** docker: what the engine applied (inspect HostConfig). */
  readonly docker?: DockerFacts;
  readonly differences: readonly IsolationDifference[];
}

/** What a plan promises about the live process (only what the runner enforces is expected). */
export interface ExpectedIsolation {
  /** Namespaces the process must not share with the server. */
  readonly namespaces: readonly NamespaceKind[];
  readonly network: NetworkReach;
  readonly no_new_privs?: boolean;
  readonly seccomp?: 'filter';
  readonly limits: IsolationLimits;
  /** Where the client sees its workspace and state dir, which must be writable mounts there. */
  readonly workspace?: string;
  readonly stateDir?: string;
  readonly host_root_visible?: false;
  readonly bypassAllowed: boolean;
}

/**
 * What a session's isolation is checked against, JSON-safe: stored in its SessionDescription so a re-attached
 * handle (after a server restart) checks the same promises without the plan.
 */
export interface IsolationCheck {
  readonly expected: ExpectedIsolation;
  /** The workspace and state dir where the client sees them (sandbox paths, else host paths). */
  readonly workspace: string;
  readonly stateDir: string;
  /** `network: isolated`: the forwarder pin `host:port`. */
  readonly egress?: string;
}
