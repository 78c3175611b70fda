/** @genswarms/runners: the Runner port and the local, tmux, bwrap, docker and mock runners. */
export type {
  AgentLaunchSpec,
  BackendConfig,
  BackendKind,
  ClientSpec,
  InnerRunner,
  LaunchPlan,
  MountSpec,
  NetworkMode,
  OutputStream,
  Runner,
  RunnerContext,
  RunnerHandle,
  SessionDescription,
  SessionHealth,
  TurnDelivery,
} from './lib/port';
export const PACKAGE_NAME = '@genswarms/runners';
