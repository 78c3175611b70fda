/**
 * The Runner port: how the engine starts, feeds and stops one agent, whatever the backend.
 * `plan` is pure (no I/O beyond what the context already resolved) and refuses with a
 * `RunnerError` whose code is one of docs/rest-api.md "runner plan" codes; `start` performs side effects.
 */
import type { ProtectedPathCheck } from './sandbox/protected-index';
import type { EgressMeter } from '@genswarms/egress';
import type { TurnReceipt } from '@genswarms/receipts';
import type { ProcessTracking } from './cgroup/cgroup-detect';
import type { LimitSupport } from './cgroup/limit-detect';
import type { IsolationCheck, IsolationReport } from './isolation/isolation-report';
import type { ClientHomeFile } from './client/adapters/client-adapter';
import type { EndpointApi } from './client/endpoint-api';

/** `open` | `none` | `isolated` | a Docker network name (docs/security.md). Keywords are already lower-cased. */
export type NetworkMode = 'open' | 'none' | 'isolated' | { readonly named: string };

export type BackendKind = 'local' | 'bwrap' | 'docker' | 'tmux' | 'mock' | 'ssh' | 'apple_container' | 'swarm';
export type InnerRunner = 'none' | 'bwrap' | 'docker';
export type ClientSpec = 'genswarms-agent' | 'codex' | 'claude' | 'opencode' | { readonly command: readonly string[] };

/** Backend keys of an agent's `config` (docs/configuration.md); domain keys never reach a runner. */
export interface BackendConfig {
  readonly env?: Readonly<Record<string, string>>;
  readonly client_source?: 'runtime' | 'host_nix';
  readonly nix_package?: string;
  readonly memory_limit?: string;
  readonly cpu_limit?: number;
  readonly pids_limit?: number;
  /** (additive) bwrap: load the genswarms seccomp filter (docs/runners.md "Seccomp"). */
  readonly seccomp?: 'default';
  readonly extra_ro_binds?: readonly (readonly [string, string])[];
  readonly extra_rw_binds?: readonly (readonly [string, string])[];
  readonly extra_path?: readonly string[];
  readonly agent_binary_path?: string;
}

/** Everything a runner needs to know about one agent. Built by the engine from the validated config. */
export interface AgentLaunchSpec {
  readonly swarm: string;
  readonly agent: string;
  readonly backend: BackendKind;
  /** tmux only: where the pane's client runs (default `none` = on the host). */
  readonly runner?: InnerRunner;
  /** docker, tmux+docker: the image. */
  readonly image?: string;
  /** (additive) ssh: `backend.host` as written (`user@host`; checked by the runner's plan). */
  readonly host?: string;
  readonly client: ClientSpec;
  readonly model?: string;
  /** The agent's own endpoint (may be untrusted); the runner applies the security endpoint policy. */
  readonly endpoint?: string;
  /** (additive) The agent's `endpoint_api`: what its own `endpoint` speaks (docs/clients.md "Endpoint compatibility"). */
  readonly endpointApis?: readonly EndpointApi[];
  /** The agent's own api_key (operator's explicit choice, always passed unless network none). */
  readonly apiKey?: string;
  readonly network: NetworkMode;
  /** Absolute host path of the workspace (real path). */
  readonly workspace: string;
  /** Absolute host paths of skill files/directories. */
  readonly skills: readonly string[];
  readonly unsafeBypass: boolean;
  /** Outgoing topology targets at start (SWARM_TOPOLOGY). */
  readonly topologyTargets: readonly string[];
  /** The agent's `turn_timeout_ms` at start (GENSWARMS_TURN_TIMEOUT_MS: the client's retries stay inside it). */
  readonly turnTimeoutMs?: number;
  readonly config: BackendConfig;
  /** `backend.opts` (mock: `replies`, `delay_ms`). */
  readonly backendOpts: Readonly<Record<string, unknown>>;
}

/** Host facts resolved once at boot (absolute binary paths, ids). Libraries never read process.env. */
export interface RunnerContext {
  /** Real path of GENSWARMS_HOME (0700). */
  readonly home: string;
  readonly serverUid: number;
  readonly serverGid: number;
  /**
   * (additive) The uid:gid the client runs as and owns its workspace/state_dir with (never 0;
   * docs/security.md#one-identity-per-agent): the server's own ids when it is not root; on a root server the
   * agent's own pair, set per agent by the engine (`agentGroup` set), or the one shared pair. Absent and no
   * `agentGroup` → derived from serverUid by `agentIdentityOf` (root → the default pair); absent with
   * `agentGroup` → refused.
   */
  readonly agent?: { readonly uid: number; readonly gid: number };
  /**
   * (additive) A root server that gives each agent its own identity: the agents' shared supplementary group
   * (the range's first id), the group of the search-only directories on the way to each agent's own. Set on
   * the server's context; the engine adds `agent` per agent. With it set and no `agent`, nothing starts.
   */
  readonly agentGroup?: number;
  /** (additive) With `agentGroup`: the range agents' ids come from (`agentGroup` = `first`; agents get `first+1..last`). */
  readonly agentIdRange?: { readonly first: number; readonly last: number };
  /** Absolute paths; undefined when the binary is not installed. */
  readonly binaries: {
    readonly node: string;
    readonly xargs?: string;
    readonly bwrap?: string;
    readonly tmux?: string;
    readonly socat?: string;
    readonly docker?: string;
    readonly nixStore?: string;
    /** util-linux setpriv: local clients get `--pdeathsig KILL` so they die with the server. */
    readonly setpriv?: string;
  };
  /** Absolute path of the built `genswarms-agent` entry (a JS file run with `binaries.node`). */
  readonly agentEntry: string;
  /** Endpoint trust inputs (docs/security.md). */
  readonly llm: {
    readonly defaultEndpoint?: string;
    readonly serverApiKey?: string;
    readonly allowedHosts: readonly string[];
    /** (additive) `GENSWARMS_LLM_ENDPOINT_API`: what `defaultEndpoint` speaks; absent = inferred from its host. */
    readonly endpointApis?: readonly EndpointApi[];
  };
  /**
   * (additive) Where `genswarms clients install` puts the coding clients (`GENSWARMS_CLIENTS_DIR`, else
   * `$GENSWARMS_HOME/clients`): runners use the pinned install there before the PATH. Absent = PATH only.
   */
  readonly clientsDir?: string;
  /** `DOCKER_HOST` as read at boot; only unset or `unix://` is accepted. */
  readonly dockerHost?: string;
  /** (additive) The PATH string the binaries were resolved on. */
  readonly searchPath?: string;
  /** (additive) The server user's home directory: never usable as a workspace (docs/runners.md). */
  readonly userHome?: string;
  /**
   * (additive) Real paths a workspace the operator names must lie strictly below (`GENSWARMS_WORKSPACE_ROOTS`,
   * resolved and checked at boot by `resolveWorkspaceRoots`; docs/security.md "Workspace roots"). Absent →
   * `[<home>/workspaces]`. Default workspaces live below `<home>/workspaces` whatever this says.
   */
  readonly workspaceRoots?: readonly string[];
  /**
   * (additive) Host system paths that exist, bound read-only into bwrap sandboxes (`/usr`, `/bin`,
   * `/lib*`, `/etc/ssl`, …). Resolved once by `buildRunnerContext`; default: `DEFAULT_SYSTEM_PATHS`.
   */
  readonly systemPaths?: readonly string[];
  /**
   * (additive) Host paths an agent's mounts must never overlap, besides GENSWARMS_HOME: the workspaces and
   * state dirs of every OTHER agent the engine knows, and server-owned paths (docs/security.md#10-agent-runners-and-sandboxes).
   * Called at plan and again at start; absent = only the fixed protected set.
   */
  readonly protectedPaths?: (self: { readonly swarm: string; readonly agent: string }) => readonly string[];
  /**
   * (additive) The same rule for many agents: indexes of agents' directories (`ProtectedPathIndex`), each answering
   * for `self` in the depth of a path instead of a walk of every agent. Checked besides `protectedPaths`.
   */
  readonly protectedChecks?: (self: { readonly swarm: string; readonly agent: string }) => readonly ProtectedPathCheck[];
  /**
   * (additive) How local and tmux `runner: none` agents' processes are tracked, so stop also kills the
   * escaped ones: a cgroup per agent, or `none` (best effort). Detected once by `buildRunnerContext`;
   * absent = `none`. See docs/runners.md "Lifecycle".
   */
  readonly processTracking?: ProcessTracking;
  /**
   * (additive) The meter of an isolated agent's LLM calls (budgets, rate limits, usage, audit trail): with one,
   * the forwarder runs the metering relay on the agent's socket in front of the pinned socat. Asked at start and
   * at re-adoption; absent, or undefined for the agent = the plain socat pipe (nothing counted).
   */
  readonly egressMeter?: (swarm: string, agent: string) => EgressMeter | undefined;
  /**
   * (additive) Which of memory_limit, pids_limit, cpu_limit this host's cgroups can enforce on bwrap agents
   * (docs/runners.md "Limits"). Detected once by `buildRunnerContext`; absent = none (a requested limit is refused).
   */
  readonly limitSupport?: LimitSupport;
}

/** One turn handed to a running agent. Headless clients read the inbox file the engine wrote. */
export interface TurnDelivery {
  readonly turnId: string;
  readonly seq: number;
  readonly from: string;
  readonly content: string;
  /** Turns directory as the client sees it (e.g. `/workspace/.genswarms/turns`). */
  readonly clientTurnsDir: string;
}

export type OutputStream = 'stdout' | 'stderr';
export type SessionHealth = 'running' | 'exited';

/** Metadata safe to store and show: never an env value, key or token. */
export interface SessionDescription {
  readonly sessionId: string;
  readonly backend: BackendKind;
  readonly runner?: InnerRunner;
  readonly network: string;
  readonly client: string;
  readonly pid?: number;
  readonly containerId?: string;
  readonly tmuxTarget?: string;
  /** (additive) tmux: which of the runner's tmux servers holds the window (0 = `tmux.sock`, k = `tmux-<k>.sock`). */
  readonly tmuxServer?: number;
  /** Names (not values) of the env variables given to the client. */
  readonly envNames: readonly string[];
  readonly workspace: string;
  readonly stateDir: string;
  /** Events the runner wants recorded at start (e.g. `api_key_withheld`, `unsafe_bypass_enabled`). */
  readonly notices: readonly string[];
  /**
   * (additive) docker + `network: isolated`: the egress pin chosen at start, so a restarted server can
   * re-validate it against its current trust policy and restart the host forwarder (never a secret).
   */
  readonly egress?: SessionEgressPin;
  /**
   * (additive) What the live process is checked against (RunnerHandle.isolation), kept so a re-attached handle
   * checks the same promises without the plan. Paths and numbers only, never a secret.
   */
  readonly isolationCheck?: IsolationCheck;
  /** (additive) ssh: where the agent runs, so a restarted server can re-attach (paths and names, never key material). */
  readonly remote?: SessionRemote;
  /** (additive) swarm: the service and the task it runs as (ids only), checked against the engine at re-attach. */
  readonly swarmService?: { readonly serviceId: string; readonly taskId: string; readonly nodeId: string };
}

/** An ssh agent's remote facts (docs/runners.md "ssh"): endpoint, key and known_hosts *paths*, the recorded process. */
export interface SessionRemote {
  readonly user: string;
  readonly host: string;
  readonly port: number;
  readonly keyPath: string;
  readonly knownHosts: readonly string[];
  readonly silentlyAcceptHosts: boolean;
  /** The agent's remote directory (`<remote home>/.genswarms-ssh/agents/<id>`). */
  readonly dir: string;
  readonly pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks since boot): a reused pid never matches. */
  readonly startTime: string;
  /** (additive) The remote node the receipt watcher runs with (`remote_node`); absent = no watcher at re-attach. */
  readonly node?: string;
}

/** Where an isolated agent's forwarder connects: host (plain hostname / IP literal), port, tls. No key, no URL path. */
export interface SessionEgressPin {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
}

export interface RunnerHandle {
  describe(): SessionDescription;
  /** Headless runners: nothing to do (the engine wrote the inbox file). TUI runners paste the turn. */
  deliver(turn: TurnDelivery): Promise<void>;
  /** Graceful stop, then kill; the whole process tree; removes manifests, env files, egress. */
  stop(opts?: { readonly graceMs?: number }): Promise<void>;
  health(): Promise<SessionHealth>;
  /** Subscribe to output lines; returns an unsubscribe function. */
  onOutput(listener: (stream: OutputStream, line: string) => void): () => void;
  /**
   * (additive) Runners whose client writes its receipt elsewhere (ssh: on the remote host) watch it themselves,
   * with the rules of docs/receipts.md; the engine uses this instead of watching the local workspace. Never `pending`.
   */
  watchReceipt?(turnId: string, opts: { readonly signal: AbortSignal }): Promise<Exclude<TurnReceipt, { kind: 'pending' }>>;
  /** Called once when the client exits (code or signal); `info.reason` when the runner knows why (`oom_killed`). */
  onExit(listener: (code: number | null, signal: string | null, info?: ExitInfo) => void): () => void;
  /**
   * (additive) `network: isolated`: called once if the host forwarder dies while the client runs (the agent
   * has lost its route to the LLM); `detail` says how. Absent for runners without a forwarder.
   */
  onEgressLost?(listener: (detail: string) => void): void;
  /**
   * (additive) ssh/swarm: called each time the remote receipt watcher is lost or could not start; turns go on at the
   * fallback poll's latency (docs/receipts.md "Remote receipts: the push"). `detail` says how. Absent elsewhere.
   */
  onReceiptPushLost?(listener: (detail: string) => void): void;
  /**
   * (additive) The isolation the live client really has, read from /proc (namespaces, NoNewPrivs, Seccomp, network,
   * cgroup limits, mounts, bypass flags) and compared with the plan (docs/runners.md "Effective isolation").
   */
  isolation?(): Promise<IsolationReport>;
  /**
   * (additive) TUI runners: the pane's text now — its scrollback and visible screen, plain text (no escapes),
   * one string per line. Absent for headless runners (their output is the stored log lines).
   */
  captureScreen?(): Promise<readonly string[]>;
  /**
   * (additive) TUI clients with screen rules (docs/clients.md "Pane mode"): resolves once the client is ready for a
   * task — its input prompt up and its screen settled — or with why it is not. Never rejects. `deliver` waits for
   * the same before every paste.
   */
  waitUntilReady?(signal: AbortSignal): Promise<ClientReadiness>;
  /**
   * (additive) TUI clients with screen rules: called when the client shows a screen that waits for a person (a
   * dialog) outside a delivery, once per showing. Returns an unsubscribe function.
   */
  onClientBlocked?(listener: (blocked: ClientBlocked) => void): () => void;
}

/** A client's screen that waits for a person: the dialog's name and the screen's last lines (bounded, redacted). */
export interface ClientBlocked {
  readonly dialog: string;
  readonly lastLines: readonly string[];
}

/** How a TUI client's start ended (RunnerHandle.waitUntilReady); `lastLines` as in ClientBlocked. */
export type ClientReadiness =
  | { readonly kind: 'ready'; readonly waitedMs: number }
  | ({ readonly kind: 'blocked' } & ClientBlocked)
  | { readonly kind: 'exited'; readonly lastLines: readonly string[] }
  | { readonly kind: 'timeout'; readonly waitedMs: number; readonly lastLines: readonly string[] }
  | { readonly kind: 'aborted' };

/**
 * (additive) What a runner learned about an exit: `oom_killed` when the agent's memory cgroup's OOM killer fired;
 * `tmux_server_exited` when the tmux server holding the agent's pane died (killed or crashed).
 */
export interface ExitInfo {
  readonly reason?: 'oom_killed' | 'ssh_disconnected' | 'agent_rescheduled' | 'tmux_server_exited';
}

export interface Runner {
  readonly kind: BackendKind;
  /** Pure validation + computation. Throws RunnerError (plan codes) before anything exists. */
  plan(spec: AgentLaunchSpec, ctx: RunnerContext): LaunchPlan;
  /**
   * Optional plan-time checks that must ask the host's engines (docker: the image is present). Runs after
   * `plan`, before anything is created; throws RunnerError with a plan code (`image_missing`).
   */
  preflight?(plan: LaunchPlan, ctx: RunnerContext): Promise<void>;
  start(plan: LaunchPlan, ctx: RunnerContext): Promise<RunnerHandle>;
  /** After a server restart: re-attach to a pane/container that outlived us, or null if gone. */
  reattach?(description: SessionDescription, ctx: RunnerContext): Promise<RunnerHandle | null>;
  /**
   * Optional: release what the runner holds for all its sessions (a tmux control client). `detach` (the
   * server goes, agents stay for the next start to re-attach) keeps them running; `shutdown` (every swarm
   * was stopped) may end them. Never throws.
   */
  close?(mode: RunnerCloseMode): Promise<void>;
}

/** How the engine leaves: `detach` keeps reattachable agents running, `shutdown` stopped them all. */
export type RunnerCloseMode = 'detach' | 'shutdown';

/** Which operator-named setting a host path came from (the mount-safety rule names it in refusals). */
export type HostPathKind = 'skill' | 'workspace' | 'extra_ro_binds' | 'extra_rw_binds' | 'extra_path' | 'agent_binary_path' | 'nix_closure';

/** A bind mount of a sandbox: host path -> sandbox path. */
export interface MountSpec {
  /** The real path resolved at plan time. */
  readonly host: string;
  readonly sandbox: string;
  readonly access: 'ro' | 'rw';
  /**
   * (additive) Set on every operator-named mount: the path as written, re-resolved and re-checked at
   * start (it must still resolve to `host`). Absent on mounts the runner generates itself.
   */
  readonly origin?: { readonly written: string; readonly kind: HostPathKind };
}

/** The pure result of planning: every path, word and env *name* decided before any side effect. */
export interface LaunchPlan {
  readonly spec: AgentLaunchSpec;
  readonly sessionId: string;
  /** `<home>/state/<swarm>/<agent>` (0700). */
  readonly stateDir: string;
  /** The client's argv (as it will run inside the boundary). */
  readonly clientArgv: readonly string[];
  /** Full env for the client: values are secrets; never logged or described. */
  readonly env: Readonly<Record<string, string>>;
  readonly mounts: readonly MountSpec[];
  /** Egress pin for `network: isolated` (host, port, tls) chosen by the host. */
  readonly egress?: {
    readonly host: string;
    readonly port: number;
    readonly tls: boolean;
    readonly dir: string;
    /** (additive) Path and query of the pinned endpoint (the in-sandbox endpoint keeps them). */
    readonly pathAndQuery?: string;
    /** (additive) `host[:port]` sent as the Host header through the bridge. */
    readonly upstreamHost?: string;
  };
  readonly notices: readonly string[];
  /**
   * (additive) A coding client's HOME files and directories (relative to the state_dir), written by `start`
   * 0600/0700 and owned by the agent; never a key (docs/clients.md "What genswarms writes").
   */
  readonly clientHome?: { readonly files: readonly ClientHomeFile[]; readonly dirs: readonly string[] };
  /** (additive) The host npm prefix of the installed coding client the plan runs (made reachable by the agent uid at start). */
  readonly clientInstall?: string;
}
