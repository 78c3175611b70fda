import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineLog } from '@genswarms/engine';
import type { ServerConfig } from '../../src/index';
import { createEngineEventSink, openEngine } from '../../src/index';
import { startTestServer, tempDir, testConfig } from './harness';
import type { TestServer } from './harness';
import { waitFor } from '@genswarms/test-kit';

/** A real server on port 0 over a real engine on a tmp GENSWARMS_HOME (mock runner fast polls). */
export interface EngineServer {
  readonly url: string;
  readonly home: string;
  readonly configDir: string;
  readonly skillsRoot: string;
  readonly test: TestServer;
  /** Writes a config file into the config dir; returns its relative path. */
  writeConfig(name: string, config: unknown): string;
  close(): Promise<void>;
}

export async function startEngineServer(
  overrides: Partial<ServerConfig> = {},
  hostExtra: { agentEntry?: string; log?: EngineLog } = {},
): Promise<EngineServer> {
  const dir = tempDir('gs-srv-');
  chmodSync(dir.path, 0o711); // search only: a root test process runs local agents as the agent uid, below home
  const home = join(dir.path, 'home');
  const configDir = join(dir.path, 'configs');
  const skillsRoot = join(dir.path, 'skills');
  for (const d of [home, configDir, skillsRoot]) mkdirSync(d, { mode: 0o700 });
  const config = testConfig(dir.path, { home, configDir, skillsRoot, ...overrides });
  const opened = await openEngine(
    config,
    {
      searchPath: process.env['PATH'] ?? '/usr/bin:/bin',
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      agentEntry: hostExtra.agentEntry ?? join(dir.path, 'no-agent.js'),
    },
    { receiptPollMs: 20, outboxPollMs: 50, ...(hostExtra.log === undefined ? {} : { log: hostExtra.log }) },
  );
  const test = await startTestServer(config, {
    engine: opened.engine,
    events: createEngineEventSink(opened.bus, () => undefined),
  });
  let closed = false;
  return {
    url: test.url,
    home,
    configDir,
    skillsRoot,
    test,
    writeConfig(name, value) {
      writeFileSync(join(configDir, name), typeof value === 'string' ? value : JSON.stringify(value));
      return name;
    },
    async close() {
      if (closed) return;
      closed = true;
      await test.close();
      await opened.shutdown().catch(() => undefined);
      dir.cleanup();
    },
  };
}

/** A mock-backend agent config. */
export function mockAgent(name: string, replies: string[] = ['{{content}}'], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, backend: { type: 'mock', opts: { replies } }, ...extra };
}

/** The kit's one polling helper, re-exported for the server specs that import it from here. */
export { waitFor };
