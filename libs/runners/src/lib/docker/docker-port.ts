/**
 * The typed Docker port: the few Engine API calls the docker runner needs. dockerode stops at the
 * adapter that implements it; tests may supply a fake that misbehaves.
 */

/** A bind mount (structured, so host paths are never parsed out of `host:ctr:ro` strings). */
export interface DockerBindMount {
  readonly Type: 'bind';
  readonly Source: string;
  readonly Target: string;
  readonly ReadOnly: boolean;
}

/** The subset of the Engine API create body we send (docs/runners.md). */
export interface ContainerCreateSpec {
  readonly name: string;
  readonly Image: string;
  readonly Entrypoint: readonly string[];
  readonly Cmd: readonly string[];
  readonly Env: readonly string[];
  readonly User: string;
  readonly WorkingDir: string;
  readonly Labels: Readonly<Record<string, string>>;
  /** Headless: all false. tmux+docker: a TTY with stdin kept open for `docker start -ai`. */
  readonly Tty: boolean;
  readonly OpenStdin: boolean;
  readonly StdinOnce: false;
  readonly AttachStdin: boolean;
  readonly AttachStdout: boolean;
  readonly AttachStderr: boolean;
  readonly NetworkDisabled?: boolean;
  readonly HostConfig: {
    readonly NetworkMode: string;
    readonly CapDrop: readonly string[];
    readonly SecurityOpt: readonly string[];
    readonly ReadonlyRootfs: true;
    readonly Tmpfs: Readonly<Record<string, string>>;
    readonly Init: true;
    readonly Privileged: false;
    readonly RestartPolicy: { readonly Name: 'no' };
    readonly PidsLimit: number;
    readonly Memory?: number;
    readonly NanoCpus?: number;
    readonly Mounts: readonly DockerBindMount[];
  };
}

export interface ContainerState {
  readonly id: string;
  readonly name: string;
  readonly running: boolean;
  readonly paused: boolean;
  readonly exitCode: number | null;
  readonly labels: Readonly<Record<string, string>>;
  /** (additive) The container's init process on the host, while it runs (isolation is read from its /proc). */
  readonly pid?: number;
  /** (additive) What the engine applied (HostConfig): shown in the isolation block. */
  readonly host?: ContainerHostFacts;
}

/** The HostConfig fields that bound a container (docker inspect). */
export interface ContainerHostFacts {
  readonly networkMode: string;
  readonly capDrop: readonly string[];
  readonly securityOpt: readonly string[];
  readonly readonlyRootfs: boolean;
}

export interface ContainerSummary {
  readonly id: string;
  readonly names: readonly string[];
  /** Engine state word: `running`, `paused`, `exited`, `created`... */
  readonly state: string;
  readonly labels: Readonly<Record<string, string>>;
}

export type LogStream = 'stdout' | 'stderr';

/** A following log subscription; `close` ends it. */
export interface LogFollow {
  close(): void;
}

export interface DockerPort {
  ping(): Promise<boolean>;
  create(spec: ContainerCreateSpec): Promise<string>;
  start(id: string): Promise<void>;
  /** undefined when no such container. */
  inspect(idOrName: string): Promise<ContainerState | undefined>;
  /** Resolves with the exit code when the container stops. */
  wait(id: string): Promise<number>;
  /** Graceful stop (`t` seconds, then SIGKILL); a stopped or absent container is fine. */
  stop(id: string, graceSeconds: number): Promise<void>;
  /** Force-remove; absent is fine. */
  remove(id: string): Promise<void>;
  pause(id: string): Promise<void>;
  unpause(id: string): Promise<void>;
  /** Follows demultiplexed output (from the start when `sinceSeconds` is 0) until the container stops. */
  logs(
    id: string,
    onChunk: (stream: LogStream, chunk: Buffer) => void,
    opts: { sinceSeconds: number; onEnd?: () => void },
  ): Promise<LogFollow>;
  /** Containers (also stopped) whose labels include every `key=value` given. */
  listByLabels(labels: Readonly<Record<string, string>>): Promise<readonly ContainerSummary[]>;
  /** Whether the engine holds an image of this reference (never pulls); optional so fakes may omit it. */
  hasImage?(ref: string): Promise<boolean>;
}
