import { loadAgentConfig } from './lib/config/agent-config';
import type { AgentConfig } from './lib/config/agent-config';
import { runAgent } from './lib/loop/agent-loop';

/** genswarms-agent entry: reads the environment once, then runs until SIGTERM/SIGINT. */
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
  log(`started, ${describeLlm(config)}, targets=[${config.topology.join(',')}]`);
  await runAgent(config, { signal: controller.signal, log });
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
