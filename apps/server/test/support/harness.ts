import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { buildEndpointPolicy, parseCorsOrigins } from '@genswarms/security';
import type { RunningServer, ServerConfig, ServerDeps } from '../../src/index';
import { createMemoryEventSink, createServerLogger, startServer } from '../../src/index';
import type { MemoryEventSink } from '../../src/index';
import { tempDir } from '@genswarms/test-kit';

/** Collects everything written to a stream. */
export function captureStream(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** The kit's private temp dir (mode 0700, real path), re-exported for the server specs that import it from here. */
export { tempDir };

/** A ServerConfig for tests: loopback, port 0, local CORS, temp dirs. */
export function testConfig(dir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    tokens: {},
    bindAddress: '127.0.0.1',
    port: 0,
    cors: parseCorsOrigins(undefined),
    configDir: dir,
    endpointPolicy: buildEndpointPolicy({}),
    home: dir,
    maxAgentsPerSwarm: 100,
    skillsRoot: join(dir, 'skills'),
    ...overrides,
  };
}

export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly events: MemoryEventSink;
  readonly logs: () => string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  close(): Promise<void>;
}

/** Starts a real server on port 0 with captured stdout, stderr, logs and events. */
export async function startTestServer(config: ServerConfig, deps: ServerDeps = {}): Promise<TestServer> {
  const log = captureStream();
  const out = captureStream();
  const err = captureStream();
  const events = createMemoryEventSink();
  const server = await startServer(config, {
    logger: createServerLogger(log.stream, 'debug'),
    events,
    stdout: out.stream,
    stderr: err.stream,
    ...deps,
  });
  return { server, url: server.url, events, logs: log.text, stdout: out.text, stderr: err.text, close: () => server.close() };
}
