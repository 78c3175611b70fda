import type { Writable } from 'node:stream';
import { EngineError } from '@genswarms/engine';
import type { ServerEnv } from '../config/load-server-config';
import { loadServerConfig } from '../config/load-server-config';
import type { ServerConfig } from '../config/server-config';
import { createEngineEventSink } from '../events/engine-event-sink';
import { createServerLogger, writeFatalRecord } from '../logging/logger';
import type { ServerLogger } from '../logging/logger';
import { engineReadiness } from '../http/routes/health';
import type { HostFacts, OpenedEngine } from './open-engine';
import { defaultAgentEntry, openEngine } from './open-engine';
import type { RunningServer, ServerDeps } from './start-server';
import { startServer } from './start-server';
import { readTokenFiles } from './token-files';

/** The process edge, injectable for tests: env, cwd, uid, streams and exit. */
export interface MainIo {
  readonly env: ServerEnv;
  readonly cwd: string;
  readonly uid: number;
  readonly gid?: number;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly exit: (code: number) => void;
  /** Built agent entry; default `apps/agent/dist/main.js` via the agent package. */
  readonly agentEntry?: string;
}

/** Exit code for a refused configuration (README.md (Configuration), docs/cli.md). */
export const EXIT_INVALID_CONFIG = 2;
/** Exit code for a `genswarms.db` the store refused to open: corrupt, another application's, or a newer schema (docs/observability.md). */
export const EXIT_STORE_REFUSED = 3;
const DEFAULT_SEARCH_PATH = '/usr/local/bin:/usr/bin:/bin';

function hostFacts(io: MainIo): HostFacts {
  const docker = io.env['DOCKER_HOST']?.trim();
  const home = io.env['HOME']?.trim();
  const swarmNodes = io.env['GENSWARMS_SWARM_NODES']?.trim();
  const certPath = io.env['DOCKER_CERT_PATH']?.trim();
  return {
    searchPath: io.env['PATH']?.trim() || DEFAULT_SEARCH_PATH,
    uid: io.uid,
    gid: io.gid ?? io.uid,
    agentEntry: io.agentEntry ?? defaultAgentEntry(),
    ...(docker === undefined || docker === '' ? {} : { dockerHost: docker }),
    ...(home === undefined || home === '' ? {} : { userHome: home }),
    ...(swarmNodes === undefined || swarmNodes === '' ? {} : { swarmNodesFile: swarmNodes }),
    ...(certPath === undefined || certPath === '' ? {} : { dockerCertPath: certPath }),
  };
}

async function open(io: MainIo, config: ServerConfig, logger: ServerLogger): Promise<OpenedEngine | undefined> {
  try {
    // The engine's internal failures (engine_error) are logged through the same scrubbing JSON logger.
    return await openEngine(config, hostFacts(io), { log: logger });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (err instanceof EngineError && err.code === 'store_refused') {
      // A corrupt, foreign or newer genswarms.db: refused before anything wrote to it, and left as it was.
      writeFatalRecord(io.stderr, 'store_refused', { code: err.details['reason'], explanation: err.message });
      io.exit(EXIT_STORE_REFUSED);
      return undefined;
    }
    writeFatalRecord(io.stderr, 'engine_open_failed', {
      code: typeof code === 'string' ? code : err instanceof Error ? err.message : 'error',
    });
    io.exit(1);
    return undefined;
  }
}

/**
 * Reads the environment once, refuses to start on any invalid variable (one stderr line, exit 2,
 * nothing bound), opens the engine (recovering running swarms) unless `deps.engine` is given, then
 * starts the server. Returns the running server, or undefined after an exit.
 */
export async function runMain(io: MainIo, deps: Omit<ServerDeps, 'stdout' | 'stderr'> = {}): Promise<RunningServer | undefined> {
  const filed = await readTokenFiles(io.env);
  if (filed.kind === 'invalid') {
    io.stderr.write(`${filed.line}\n`);
    io.exit(EXIT_INVALID_CONFIG);
    return undefined;
  }
  const loaded = await loadServerConfig({ ...io.env, ...filed.tokens }, { cwd: io.cwd, uid: io.uid, gid: io.gid ?? io.uid });
  if (loaded.kind === 'invalid') {
    io.stderr.write(`${loaded.line}\n`);
    io.exit(EXIT_INVALID_CONFIG);
    return undefined;
  }
  // From here on stderr carries only JSON log records, at GENSWARMS_LOG_LEVEL (docs/observability.md, "Server log").
  const logger = deps.logger ?? createServerLogger(io.stderr, loaded.config.logLevel);
  const opened = deps.engine === undefined ? await open(io, loaded.config, logger) : undefined;
  if (deps.engine === undefined && opened === undefined) return undefined;
  const engineDeps: Partial<ServerDeps> =
    opened === undefined
      ? {}
      : {
          engine: opened.engine,
          events: createEngineEventSink(opened.bus, () => undefined),
          readiness: engineReadiness(opened.engine, { probeRunners: opened.probeRunners }),
          onClose: () => opened.close(),
        };
  try {
    return await startServer(loaded.config, { ...deps, ...engineDeps, logger, stdout: io.stdout, stderr: io.stderr });
  } catch (err) {
    await opened?.close();
    const code = (err as NodeJS.ErrnoException).code ?? 'start_failed';
    writeFatalRecord(io.stderr, 'listen_failed', { bind: loaded.config.bindAddress, port: loaded.config.port, code });
    io.exit(1);
    return undefined;
  }
}
