/** @genswarms/agent: genswarms-agent, the built-in headless agent (run `bin/genswarms-agent.js`). */
export const PACKAGE_NAME = '@genswarms/agent';

export { loadAgentConfig, parseTopology } from './lib/config/agent-config';
export type { AgentConfig, AgentConfigLoad, AgentEnv, LlmMode } from './lib/config/agent-config';
export { chatCompletionsUrl } from './lib/llm/chat-url';
export { extractAtMessages } from './lib/turn/at-lines';
export type { AtMessage } from './lib/turn/at-lines';
export { runAgent, INBOX_POLL_MS } from './lib/loop/agent-loop';
export type { AgentLoopOptions } from './lib/loop/agent-loop';
export { NO_ENDPOINT_ERROR } from './lib/turn/answer';
