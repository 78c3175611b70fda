import { join } from 'node:path';
import type { ServerEnv } from '../../src/index';
import { createEngineEventSink, loadServerConfig, openEngine } from '../../src/index';
import type { OpenedEngine } from '../../src/index';
import { startTestServer } from './harness';
import type { TestServer } from './harness';

/** A real server on port 0 whose configuration came from `env` through the boot's own parser. */
export interface EnvServer {
  readonly url: string;
  readonly home: string;
  readonly workspaceRoots: readonly string[];
  /** Closes the server and detaches the engine (agents stay for the next boot's recovery). */
  close(): Promise<void>;
  /** Closes the server and stops every swarm. */
  shutdown(): Promise<void>;
}

/**
 * Boots like `runMain` (loadServerConfig over `env`: GENSWARMS_HOME, GENSWARMS_WORKSPACE_ROOTS …), then
 * opens the engine and listens on port 0. A refused environment throws with the refusal line.
 */
export async function bootFromEnv(env: ServerEnv, cwd: string): Promise<EnvServer> {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const loaded = await loadServerConfig(env, { cwd, uid, gid });
  if (loaded.kind === 'invalid') throw new Error(loaded.line);
  const config = { ...loaded.config, port: 0 };
  const opened: OpenedEngine = await openEngine(
    config,
    { searchPath: process.env['PATH'] ?? '/usr/bin:/bin', uid, gid, agentEntry: join(cwd, 'no-agent.js') },
    { receiptPollMs: 20, outboxPollMs: 50 },
  );
  const test: TestServer = await startTestServer(config, {
    engine: opened.engine,
    events: createEngineEventSink(opened.bus, () => undefined),
  });
  return {
    url: test.url,
    home: config.home,
    workspaceRoots: config.workspaceRoots ?? [],
    close: async () => {
      await test.close();
      await opened.close();
    },
    shutdown: async () => {
      await test.close();
      await opened.shutdown();
    },
  };
}
