import type { CorsPolicy, EndpointPolicy, TokenConfig } from '@genswarms/security';
import type { LogLevel } from '../logging/log-level';
import type { AgentIdMode, EndpointApi } from '@genswarms/runners';

/** Everything the server needs, read once from the environment at boot (README.md (Configuration)). Holds secrets: never log it. */
export interface ServerConfig {
  readonly tokens: TokenConfig;
  /** Exact address to listen on (`GENSWARMS_HTTP_IP`). */
  readonly bindAddress: string;
  /** TCP port; 0 = any free port (tests only; the env parser accepts 1–65535). */
  readonly port: number;
  readonly cors: CorsPolicy;
  /** Real path of the `config_path` root (`GENSWARMS_SWARM_CONFIG_DIR`). */
  readonly configDir: string;
  readonly endpointPolicy: EndpointPolicy;
  /** `GENSWARMS_LLM_ENDPOINT_API`: what the default endpoint speaks; absent → inferred from its host (docs/clients.md). */
  readonly endpointApis?: readonly EndpointApi[];
  /** Real path of `GENSWARMS_HOME` (checked 0700, ours). */
  readonly home: string;
  /** `GENSWARMS_CLIENTS_DIR` or `$GENSWARMS_HOME/clients`: runners use the pinned coding clients there first. Absent (embedders, tests) → the PATH only. */
  readonly clientsDir?: string;
  readonly maxAgentsPerSwarm: number;
  /**
   * The uid:gid agents run as (`GENSWARMS_AGENT_UID`/`GENSWARMS_AGENT_GID`, docs/security.md#one-identity-per-agent):
   * the server's own ids unless it runs as root; never 0. Absent (embedders, tests) → the runners' default rule.
   */
  readonly agent?: { readonly uid: number; readonly gid: number };
  /**
   * How agents get their ids (`self`, `shared`, or `per_agent` from a range; `parseAgentIdMode` in @genswarms/runners).
   * With `per_agent`, `agent` is absent and the engine allocates one uid:gid per agent. Absent (embedders, tests) →
   * `agent`'s rule.
   */
  readonly agentIds?: AgentIdMode;
  readonly skillsRoot: string;
  /**
   * `GENSWARMS_WORKSPACE_ROOTS` as real paths: a workspace the operator names must lie below one
   * (docs/security.md "Workspace roots"). Absent (embedders, tests) → `[<home>/workspaces]`.
   */
  readonly workspaceRoots?: readonly string[];
  /**
   * `GENSWARMS_SOCKET_MAX_BUFFER_BYTES`: what one socket.io connection may hold unsent before it is closed as a
   * slow consumer (docs/websocket.md); absent → 8 MiB.
   */
  readonly socketMaxBufferedBytes?: number;
  /** `GENSWARMS_LOG_LEVEL` (default `info`); absent (embedders, tests) → `info`. */
  readonly logLevel?: LogLevel;
}

/** Result of reading the environment: a config, or the one refusal line to print before exit 2. */
export type ServerConfigLoad = { kind: 'ok'; config: ServerConfig } | { kind: 'invalid'; variable: string; reason: string; line: string };
