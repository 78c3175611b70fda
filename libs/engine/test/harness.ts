/** Shared e2e harness: a real engine on a tmp home, real SQLite, the real mock runner. */
import {
  buildRunnerContext,
  createDockerRunner,
  createRunnerRegistry,
  createTmuxRunner,
  type RunnerContext,
  type RunnerRegistry,
} from '@genswarms/runners';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../src/lib/swarms/engine';
import type { StoredEvent } from '../src/lib/store/store';
import type { HandlerRegistry } from '../src/lib/objects/handler';
import type { EngineLog } from '../src/lib/events/failure-report';
import type { Store } from '../src/lib/store/store';
import { waitFor } from '@genswarms/test-kit';
import type { HostLimitsReader } from '../src/lib/swarms/host-capacity-gate';

export interface Harness {
  home: string;
  configDir: string;
  /** A directory outside GENSWARMS_HOME, below the workspace roots, for named workspaces (removed by cleanup). */
  named: string;
  engine: Engine;
  open(): Promise<Engine>;
  cleanup(): Promise<void>;
}

export interface HarnessOptions {
  awaitingMs?: number;
  docker?: boolean;
  /** Adds the tmux runner (its panes outlive an engine that detaches: re-attached by the next open). */
  tmux?: boolean;
  /** The genswarms-agent entry local agents run (default: a path that does not exist). */
  agentEntry?: string;
  /** The operator's default LLM endpoint handed to agents (default: none). */
  llmEndpoint?: string;
  /** Object handlers (default: the built-ins). */
  handlers?: HandlerRegistry;
  /** The store of each opened engine, from the home (default: SQLite in the home). */
  store?: (home: string) => Store;
  /** Where the engine logs internal failures (default: stderr). */
  log?: EngineLog;
  /** Wraps the runner registry (a test makes one runner misbehave). */
  runners?: (real: RunnerRegistry) => RunnerRegistry;
  /** GENSWARMS_WORKSPACE_ROOTS as resolved (default: the temp directory, where the specs make named workspaces). */
  workspaceRoots?: readonly string[];
  /** More of the runner context's endpoint trust (server key, allowed hosts, what the endpoint speaks). */
  llm?: Partial<RunnerContext['llm']>;
  /** Where runners find the installed coding clients (default: none, the PATH only). */
  clientsDir?: string;
  /** The host's limits as the engine reads them before a start (default: this host's). */
  readHostLimits?: HostLimitsReader;
}

export async function makeHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-engine-')));
  fs.chmodSync(home, 0o700);
  const configDir = path.join(home, 'configs');
  fs.mkdirSync(configDir, { mode: 0o700 });
  const named = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-engine-ws-')));
  const ctx = buildRunnerContext({
    path: process.env['PATH'] ?? '/usr/bin:/bin',
    home,
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    agentEntry: opts.agentEntry ?? path.join(home, 'agent-main.js'),
    llm: { allowedHosts: [], ...(opts.llmEndpoint === undefined ? {} : { defaultEndpoint: opts.llmEndpoint }), ...opts.llm },
    workspaceRoots: opts.workspaceRoots ?? [fs.realpathSync(os.tmpdir())],
    ...(opts.clientsDir === undefined ? {} : { clientsDir: opts.clientsDir }),
  });
  const open = (): Promise<Engine> =>
    Engine.open({
      home,
      configDir,
      runners: (opts.runners ?? ((r) => r))(
        createRunnerRegistry(ctx, {
          ...(opts.docker === true ? { docker: createDockerRunner() } : {}),
          ...(opts.tmux === true ? { tmux: createTmuxRunner() } : {}),
        }),
      ),
      runnerContext: ctx,
      receiptPollMs: 20,
      outboxPollMs: 50,
      ...(opts.handlers === undefined ? {} : { handlers: opts.handlers }),
      ...(opts.awaitingMs === undefined ? {} : { awaitingMs: opts.awaitingMs }),
      ...(opts.store === undefined ? {} : { store: opts.store(home) }),
      ...(opts.log === undefined ? {} : { log: opts.log }),
      ...(opts.readHostLimits === undefined ? {} : { readHostLimits: opts.readHostLimits }),
    });
  const h: Harness = {
    home,
    configDir,
    named,
    engine: await open(),
    open,
    cleanup: async () => {
      await h.engine.shutdown().catch(() => undefined);
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(named, { recursive: true, force: true });
    },
  };
  return h;
}

export function mockAgent(
  name: string,
  replies: string[] = ['{{content}}'],
  extra: Record<string, unknown> = {},
): { name: string } & Record<string, unknown> {
  return { name, backend: { type: 'mock', opts: { replies } }, ...extra };
}

/** The one polling helper of every project's specs, re-exported so the engine specs import it with the harness. */
export { waitFor };

export async function eventsOf(engine: Engine, swarm: string): Promise<StoredEvent[]> {
  return await engine.store.queryEvents({ swarm, limit: 1000, sinceId: 0 });
}

export async function waitEvent(engine: Engine, swarm: string, pred: (e: StoredEvent) => boolean, what: string): Promise<StoredEvent> {
  return waitFor(async () => (await eventsOf(engine, swarm)).find(pred), what);
}

/** The image `tools/docker/build-test-image.sh` builds (CI builds it after starting dockerd). */
export const TEST_IMAGE = 'genswarms/test-agent:latest';
const DOCKER = ['/usr/local/bin/docker', '/usr/bin/docker'].find((p) => fs.existsSync(p));

/** The docker CLI (argv, no shell); stdout trimmed, or undefined when it failed. */
export function docker(args: string[]): string | undefined {
  if (DOCKER === undefined) return undefined;
  const r = spawnSync(DOCKER, args, { shell: false, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' }, timeout: 60000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Why the docker specs cannot run here, or undefined when an engine and the test image are available. */
export function dockerUnavailable(): string | undefined {
  if (!fs.existsSync('/var/run/docker.sock')) return 'no /var/run/docker.sock (dockerd not running)';
  if (docker(['version', '--format', '{{.Server.Version}}']) === undefined) return 'the docker engine does not answer';
  if (docker(['image', 'inspect', TEST_IMAGE]) === undefined) return `image ${TEST_IMAGE} missing (run tools/docker/build-test-image.sh)`;
  return undefined;
}
