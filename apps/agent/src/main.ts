import { loadAgentConfig } from './lib/config/agent-config';
import type { AgentConfig } from './lib/config/agent-config';
import { runAgent } from './lib/loop/agent-loop';

/** How often the agent checks that the process that started it (the server) is still its parent. */
const ORPHAN_CHECK_MS = 500;

/**
 * Aborts when this process is re-parented, i.e. the server that started it exited without stopping
 * it (docs/receipts.md: headless processes die with the server). An orphaned agent would keep polling a
 * workspace that a new server reuses — its own seq high-water mark, its old LLM endpoint — racing
 * the new agent for the same inbox files (seen as "already done, skipped" + a failed turn). A parent
 * of pid 1 from the start (a container or namespace init) never changes, so it never triggers.
 */
function stopWhenOrphaned(onOrphaned: () => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, ORPHAN_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** genswarms-agent entry: reads the environment once, then runs until SIGTERM/SIGINT or its parent exits. */
async function main(): Promise<number> {
  const loaded = loadAgentConfig(process.env);
  if (loaded.kind === 'invalid') {
    process.stderr.write(`genswarms-agent: invalid ${loaded.variable}: ${loaded.reason}\n`);
    return 2;
  }
  const { config } = loaded;
  const log = (line: string): void => {
    process.stderr.write(`genswarms-agent[${config.agent}]: ${line}\n`);
  };
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const unwatch = stopWhenOrphaned(() => {
    log('the process that started this agent exited; stopping');
    stop();
  });
  log(`started, ${describeLlm(config)}, targets=[${config.topology.join(',')}]`);
  await runAgent(config, { signal: controller.signal, log });
  unwatch();
  log('stopped');
  return 0;
}

/** Names the answer source without secrets: the endpoint's origin only, never the key or the query. */
function describeLlm(config: AgentConfig): string {
  switch (config.llm.kind) {
    case 'mock':
      return `mock script (${config.llm.script.length} entries)`;
    case 'none':
      return 'no LLM endpoint (every turn gets an error receipt)';
    case 'client':
      return `${config.llm.client} once per turn (${config.llm.argv[0]})`;
    case 'endpoint':
      return `llm ${new URL(config.llm.endpoint).origin}${config.llm.apiKey === undefined ? '' : ' (key set)'}`;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`genswarms-agent: fatal: ${error instanceof Error ? error.message : 'unknown error'}\n`);
    process.exitCode = 1;
  },
);
