/** @genswarms/runners: the Runner port and the local, tmux, bwrap, docker and mock runners. */
export type {
  AgentLaunchSpec,
  BackendConfig,
  BackendKind,
  ClientSpec,
  ExitInfo,
  InnerRunner,
  LaunchPlan,
  MountSpec,
  NetworkMode,
  OutputStream,
  Runner,
  RunnerContext,
  RunnerHandle,
  ClientBlocked,
  ClientReadiness,
  SessionDescription,
  SessionHealth,
  TurnDelivery,
} from './lib/port';
export { RunnerError, isRunnerError } from './lib/errors/runner-error';
export type { RunnerErrorCode } from './lib/errors/runner-error';
export { buildRunnerContext, findOnPath } from './lib/context/runner-context';
export { DEFAULT_AGENT_GID, DEFAULT_AGENT_UID, parseAgentId, resolveAgentIdentity } from './lib/identity/agent-identity';
export type { AgentIdentity, AgentIdentityResolution } from './lib/identity/agent-identity';
export {
  AGENT_ID_RANGE_MAX,
  DEFAULT_AGENT_ID_RANGE,
  agentIdRangeConflict,
  parseAgentIdRange,
  readHostIdDatabases,
  uidHasProcesses,
} from './lib/identity/agent-id-range';
export type { AgentIdRange, AgentIdRangeParse, HostIdDatabases } from './lib/identity/agent-id-range';
export { AgentIdRefusal, describeAgentIdMode, parseAgentIdMode, traversalGroup } from './lib/identity/agent-id-mode';
export type { AgentIdMode } from './lib/identity/agent-id-mode';
export type { RunnerContextInput } from './lib/context/runner-context';
export { resolveWorkspaceRoots, WORKSPACE_ROOTS_MAX } from './lib/workspace/workspace-roots';
export type { WorkspaceRootsInput, WorkspaceRootsResolution } from './lib/workspace/workspace-roots';
export { planNamedWorkspace } from './lib/workspace/named-workspace';
export { createWorkspaceDir } from './lib/workspace/workspace-walk';
export { planGitSource, GIT_REF_MAX_CHARS } from './lib/git/git-source';
export type { GitSourcePlan, GitWorkspaceSource } from './lib/git/git-source';
export { cloneGitWorkspace, ensureGitClone } from './lib/git/git-clone';
export type { GitCloneInput } from './lib/git/git-clone';
export type { GitRecord } from './lib/git/git-record';
export { readAgentWork } from './lib/git/agent-work';
export type { AgentWork, AgentWorkInput } from './lib/git/agent-work';
export { agentDiff, listAgentChanges, CHANGES_COMMITS_MAX, CHANGES_FILES_MAX, DIFF_MAX_BYTES } from './lib/git/git-changes';
export type { AgentChanges, AgentCommit, ChangedFile, FileStatus } from './lib/git/git-changes';
export { takeAgentWork } from './lib/git/git-take';
export type { TakenWork } from './lib/git/git-take';
export { agentBranchName, gitSwarmDir, hasGitRecord } from './lib/git/git-layout';
export { buildHostGitArgv, buildHostGitEnv, HOST_GIT_BINARY, HOST_GIT_CONFIG } from './lib/git/host-git';
export { LAUNCHER_PATH, SANDBOX_LAUNCHER_PATH } from './lib/launcher/launcher';
export { assertArgv } from './lib/argv/validate-argv';
export { XARGS_MAX_BYTES, computeManifestBudget, writeArgvManifest, buildXargsArgv } from './lib/manifest/argv-manifest';
export { ensurePrivateDir, writeEnvFile, stateDirFor } from './lib/state/state-dir';
export { parseNetworkMode, networkLabel, assertNetworkSupported } from './lib/network/network-policy';
export { buildClientArgv, hasBypassFlag, BYPASS_FLAGS } from './lib/client/clients';
export { buildClientEnv } from './lib/env/client-env';
export { planMounts, DEFAULT_SYSTEM_PATHS } from './lib/sandbox/mounts';
export { ProtectedPathIndex } from './lib/sandbox/protected-index';
export type { ProtectedEntry, ProtectedPathCheck } from './lib/sandbox/protected-index';
export { buildBwrapArgs } from './lib/bwrap/bwrap-args';
export { killProcessTree } from './lib/process/process-tree';
export { detectProcessTracking, describeProcessTracking } from './lib/cgroup/cgroup-detect';
export type { ProcessTracking } from './lib/cgroup/cgroup-detect';
export type { IsolationDifference, IsolationReport } from './lib/isolation/isolation-report';
export { detectLimitSupport, describeLimitSupport } from './lib/cgroup/limit-detect';
export {
  AGENT_HOST_COST,
  HOST_COST_RUNNERS,
  TMUX_SERVER_HOST_COST,
  hostCostRunnerOf,
  countByRunner,
} from './lib/host-limits/agent-host-cost';
export type { AgentHostCost, HostCostRunner } from './lib/host-limits/agent-host-cost';
export { readHostLimits, SYSTEM_HOST_PROBE } from './lib/host-limits/host-readings';
export type { CgroupLayout, HostProbe, HostReadings, Usage } from './lib/host-limits/host-readings';
export {
  checkHostCapacity,
  agentsThatFit,
  demandOf,
  limitLines,
  HOST_TASKS_RESERVE,
  SERVER_FDS_RESERVE,
} from './lib/host-limits/host-capacity';
export type { HostCapacity, HostLimitExceeded, HostLimitName, LimitLine } from './lib/host-limits/host-capacity';
export type { LimitSupport } from './lib/cgroup/limit-detect';
export { createLocalRunner, withParentDeathSignal } from './lib/local/local-runner';
export { createBwrapRunner } from './lib/bwrap/bwrap-runner';
export { createMockRunner } from './lib/mock/mock-runner';
export { createAppleContainerRunner } from './lib/apple/apple-runner';
export type { AppleContainerRunnerOptions } from './lib/apple/apple-runner';
export { createRunnerRegistry } from './lib/registry/runner-registry';
export type { RunnerRegistry } from './lib/registry/runner-registry';
export type { RunnerCloseMode } from './lib/port';
export { formatTuiDelivery } from './lib/client/tui-delivery';
export { CODING_CLIENTS, CODING_CLIENT_NAMES, isClientVersion, isCodingClientName } from './lib/client/coding-clients';
export type { CodingClientName, CodingClientPackage } from './lib/client/coding-clients';
export { CLIENT_SCREENS } from './lib/client/screens/client-screens';
export type { ScreenRulesResolver } from './lib/client/screens/client-screens';
export type { ClientScreenRules, DialogRule } from './lib/client/screens/screen-rules';
export { tailScreenLines } from './lib/screen/screen-lines';
export { CLIENT_ADAPTERS } from './lib/client/adapters/adapter-table';
export { CLIENT_KEY_ENV } from './lib/client/adapters/client-adapter';
export type { ClientAdapter, ClientAdapterInput, ClientEndpoint, ClientHomeFile, ClientSetup } from './lib/client/adapters/client-adapter';
export { DEFAULT_ENDPOINT_APIS, ENDPOINT_APIS, inferEndpointApis, isEndpointApi, parseEndpointApiList } from './lib/client/endpoint-api';
export type { EndpointApi, EndpointApiParse } from './lib/client/endpoint-api';
export { CLIENT_EXEC_ENV, planClientLaunch } from './lib/client/client-launch';
export type { ClientLaunch } from './lib/client/client-launch';
export { clientModeOf, isCodingClient, LOCAL_CLIENT_MODES } from './lib/client/client-mode';
export type { ClientMode } from './lib/client/client-mode';
export { endpointApisOf } from './lib/client/endpoint-compat';
export type { EndpointApiSource } from './lib/client/endpoint-compat';
export {
  clientInstallDir,
  defaultClientsDir,
  listInstalledVersions,
  resolveInstalledClient,
  CLIENT_MANIFEST_MAX_BYTES,
} from './lib/client/installed-client';
export type { InstalledClient, InstalledClientResolution, ResolveInstalledClientOptions } from './lib/client/installed-client';
export { hostClientPlatform, nativeBinaryCandidates } from './lib/client/native-binary';
export type { ClientPlatform } from './lib/client/native-binary';
export { createDockerRunner } from './lib/docker/docker-runner';
export type { DockerRunner, DockerRunnerOptions } from './lib/docker/docker-runner';
export { DEFAULT_DOCKER_IMAGE } from './lib/docker/container-spec';
export type { DockerPort } from './lib/docker/docker-port';
export { createTmuxDockerRunner } from './lib/docker/tmux-docker';
export type { TmuxDockerOptions } from './lib/docker/tmux-docker';
export { createTmuxRunner } from './lib/tmux/tmux-runner';
export type { TmuxInnerRunner, TmuxRunnerOptions } from './lib/tmux/tmux-runner';
export { TmuxServer, tmuxSocketPath, tmuxSocketIndexOf, TMUX_SERVERS_MAX } from './lib/tmux/tmux-server';
export { TmuxServers, TMUX_PANES_PER_SERVER } from './lib/tmux/tmux-servers';
export type { TmuxPlacement, TmuxServerOpener } from './lib/tmux/tmux-servers';
export type { TmuxServerOptions } from './lib/tmux/tmux-server';
export { TmuxControlClient } from './lib/tmux/control-client';
export { tmuxAttachArgv } from './lib/tmux/attach-argv';
export const PACKAGE_NAME = '@genswarms/runners';
export { createSshRunner, SSH_UNVERIFIED_NOTICE } from './lib/ssh/ssh-runner';
export type { SshRunnerOptions } from './lib/ssh/ssh-runner';
export { createSwarmRunner, SWARM_TASK_START_TIMEOUT_MS } from './lib/swarm/swarm-runner';
export { SWARM_UNFILTERED_NOTICE } from './lib/swarm/swarm-plan';
export type { SwarmRunnerOptions } from './lib/swarm/swarm-runner';
export { loadSwarmNodes, parseSwarmNodes } from './lib/swarm/swarm-engine';
export type { EngineEndpoint, EngineTls, SwarmNodesLoad } from './lib/swarm/swarm-engine';
export { parseKnownHosts, fingerprintOf, knownHostsName, hashKnownHostName, KNOWN_HOSTS_MAX_BYTES } from './lib/ssh/known-hosts';
export type { KnownHostEntry } from './lib/ssh/known-hosts';
export { verifyHostKey, loadKnownHosts } from './lib/ssh/host-key-verify';
export type { HostKeyVerdict } from './lib/ssh/host-key-verify';
export { openSshConnection, describeEndpoint } from './lib/ssh/ssh-connection';
export type { SshConnection, SshEndpoint } from './lib/ssh/ssh-connection';
export { readPrivateKey } from './lib/ssh/ssh-key';
export { probeHostKey, HOST_KEY_PROBE_TIMEOUT_MS } from './lib/ssh/host-key-probe';
export type { HostKeyProbe } from './lib/ssh/host-key-probe';
