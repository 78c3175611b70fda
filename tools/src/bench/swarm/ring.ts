import { performance } from 'node:perf_hooks';
import { agentName } from './backends';
import type { BenchServer } from './bench-server';

/** Agents in the ring (issue 13 measured a ring of 100 mock agents). */
export const RING_AGENTS = 100;
/** Messages circulating at once (one task per agent in the first tenth of the ring). */
const RING_TOKENS = 10;

export interface RingResult {
  readonly agents: number;
  readonly messagesPerS: number;
  readonly serverCpuPct: number;
}

/** A ring of mock agents a(i) → a(i+1): each reply forwards its content to the next agent. */
export function ringConfig(swarm: string, n: number): Record<string, unknown> {
  const agents = Array.from({ length: n }, (_, i) => ({
    name: agentName(i),
    backend: { type: 'mock', opts: { replies: [`<<SWARM_MSG:TO=${agentName((i + 1) % n)}:START>>{{content}}<<SWARM_MSG:END>>`] } },
  }));
  const topology = Array.from({ length: n }, (_, i) => [agentName(i), agentName((i + 1) % n)]);
  return { name: swarm, agents, topology, options: { max_agents: n } };
}

interface MessageRow {
  readonly id: number;
}

async function lastMessageId(server: BenchServer, swarm: string): Promise<number> {
  const res = await server.api<{ messages: MessageRow[] }>('GET', `/api/swarms/${swarm}/messages?limit=1`);
  return res.body?.messages?.[0]?.id ?? 0;
}

/**
 * Routed messages per second end to end (reply → markers → route → next agent's turn) over `ms`, from the
 * message log's ids, with the server's CPU over the same window (% of one core).
 */
export async function measureRing(server: BenchServer, ms: number, cpuTicks: () => number): Promise<RingResult> {
  const swarm = `ring-${Date.now().toString(36)}`;
  const created = await server.api('POST', '/api/swarms', { config: ringConfig(swarm, RING_AGENTS) });
  if (created.status !== 201) throw new Error(`ring: POST ${created.status}`);
  try {
    for (let i = 0; i < RING_TOKENS; i++) {
      await server.api('POST', `/api/swarms/${swarm}/agents/${agentName(i * (RING_AGENTS / RING_TOKENS))}/task`, { task: `token ${i}` });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // warm up
    const id0 = await lastMessageId(server, swarm);
    const c0 = cpuTicks();
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const id1 = await lastMessageId(server, swarm);
    const seconds = (performance.now() - t0) / 1000;
    return { agents: RING_AGENTS, messagesPerS: (id1 - id0) / seconds, serverCpuPct: ((cpuTicks() - c0) / 100 / seconds) * 100 };
  } finally {
    await server.api('DELETE', `/api/swarms/${swarm}?purge=true`);
  }
}
