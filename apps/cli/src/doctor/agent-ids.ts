import { AgentIdRefusal, describeAgentIdMode, parseAgentIdMode } from '@genswarms/runners';
import type { Check } from './probes';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Which identities agents get on this host with this environment (the server's own rule, docs/security.md "One
 * identity per agent"): one per agent (root, a range), one shared uid (the weaker opt-in), or the server's own
 * (non-root). Run as the user the server runs as; a refusal is what the server would print at boot.
 */
export function checkAgentIds(env: Env, server: { uid: number; gid: number }): Check {
  try {
    const mode = parseAgentIdMode(env, server);
    return { name: 'agent ids', status: mode.kind === 'per_agent' ? 'ok' : 'missing', detail: describeAgentIdMode(mode) };
  } catch (err) {
    if (!(err instanceof AgentIdRefusal)) throw err;
    return { name: 'agent ids', status: 'problem', detail: `the server would refuse to start: ${err.variable}: ${err.reason}` };
  }
}
