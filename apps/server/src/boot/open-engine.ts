import * as path from 'node:path';
import { Engine } from '@genswarms/engine';
import type { EngineOptions, EventType, SwarmService } from '@genswarms/engine';
import {
  buildRunnerContext,
  createDockerRunner,
  createRunnerRegistry,
  createSwarmRunner,
  createTmuxDockerRunner,
  createTmuxRunner,
} from '@genswarms/runners';
import type { RunnerContext, RunnerRegistry } from '@genswarms/runners';
import type { ServerConfig } from '../config/server-config';
import type { EngineEventBus } from '../events/engine-event-sink';

/** Host facts the app read once at boot (libraries never read process.env). */
export interface HostFacts {
  /** PATH used to resolve node, tmux, bwrap, socat, docker once. */
  readonly searchPath: string;
  readonly uid: number;
  readonly gid: number;
  /** Absolute path of the built `genswarms-agent` (apps/agent/dist/main.js). */
  readonly agentEntry: string;
  readonly dockerHost?: string;
  /** `DOCKER_CERT_PATH`: ca.pem, cert.pem, key.pem of a tcp:// DOCKER_HOST (the swarm backend's manager). */
  readonly dockerCertPath?: string;
  /** `GENSWARMS_SWARM_NODES`: the swarm backend's node map file (nodeId → engine endpoint). */
  readonly swarmNodesFile?: string;
  readonly userHome?: string;
  /** Absolute node binary (default: node on searchPath). */
  readonly node?: string;
}

/** An open engine: the service the routes use, its event bus, and how to close it. */
export interface OpenedEngine {
  readonly engine: SwarmService;
  readonly bus: EngineEventBus;
  /**
   * Closes the store; swarms stay running for the next start: tmux panes and containers are left to
   * be re-attached, headless processes (local, bwrap) are stopped and restarted by recovery.
   */
  close(): Promise<void>;
  /** Stops every swarm, then closes the store (embedders and tests). */
  shutdown(): Promise<void>;
  /** Readiness (`GET /readyz`): the runner context resolved at boot has an absolute node binary to run agents with. */
  probeRunners(): boolean;
}

/** `apps/agent/dist/main.js`, found through the agent package (which must have been built). */
export function defaultAgentEntry(): string {
  return path.join(path.dirname(require.resolve('@genswarms/agent/package.json')), 'dist', 'main.js');
}

/** The manager's client certificates, from DOCKER_CERT_PATH (the docker CLI's file names). */
function swarmTls(certPath: string | undefined): { tls?: { ca: string; cert: string; key: string } } {
  if (certPath === undefined) return {};
  return { tls: { ca: path.join(certPath, 'ca.pem'), cert: path.join(certPath, 'cert.pem'), key: path.join(certPath, 'key.pem') } };
}

/** Runner registry: local, bwrap, mock built in; tmux on `$home/tmux`; docker on DOCKER_HOST. */
export function buildRunners(config: ServerConfig, host: HostFacts): { ctx: RunnerContext; runners: RunnerRegistry } {
  const ctx = buildRunnerContext({
    path: host.searchPath,
    home: config.home,
    uid: host.uid,
    gid: host.gid,
    agentEntry: host.agentEntry,
    llm: { ...config.endpointPolicy, ...(config.endpointApis === undefined ? {} : { endpointApis: config.endpointApis }) },
    ...(config.agentIds?.kind === 'per_agent'
      ? { agentIdRange: config.agentIds.range }
      : config.agent === undefined
        ? {}
        : { agentUid: config.agent.uid, agentGid: config.agent.gid }),
    ...(config.workspaceRoots === undefined ? {} : { workspaceRoots: config.workspaceRoots }),
    ...(host.node === undefined ? {} : { node: host.node }),
    ...(host.dockerHost === undefined ? {} : { dockerHost: host.dockerHost }),
    ...(host.userHome === undefined ? {} : { userHome: host.userHome }),
    ...(config.clientsDir === undefined ? {} : { clientsDir: config.clientsDir }),
  });
  const runners = createRunnerRegistry(ctx, {
    tmux: createTmuxRunner({ docker: createTmuxDockerRunner() }),
    docker: createDockerRunner(host.dockerHost === undefined ? {} : { dockerHost: host.dockerHost }),
    swarm: createSwarmRunner({
      ...(host.dockerHost === undefined ? {} : { manager: { host: host.dockerHost, ...swarmTls(host.dockerCertPath) } }),
      ...(host.swarmNodesFile === undefined ? {} : { nodesFile: host.swarmNodesFile }),
    }),
  });
  return { ctx, runners };
}

/** Opens the engine (SQLite at `$GENSWARMS_HOME/genswarms.db`, recovery of running swarms) for the server. */
export async function openEngine(
  config: ServerConfig,
  host: HostFacts,
  extra: Pick<EngineOptions, 'receiptPollMs' | 'outboxPollMs' | 'awaitingMs' | 'handlers' | 'log'> = {},
): Promise<OpenedEngine> {
  const { ctx, runners } = buildRunners(config, host);
  const engine = await Engine.open({
    home: config.home,
    configDir: config.configDir,
    runners,
    runnerContext: ctx,
    maxAgentsPerSwarm: config.maxAgentsPerSwarm,
    skillsRoot: config.skillsRoot,
    ...extra,
  });
  const bus: EngineEventBus = { emit: (input) => engine.events.emit({ ...input, type: input.type as EventType }) };
  const probeRunners = (): boolean => path.isAbsolute(ctx.binaries.node);
  return { engine, bus, close: () => engine.detach(), shutdown: () => engine.shutdown(), probeRunners };
}
