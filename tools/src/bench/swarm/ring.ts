import { performance } from 'node:perf_hooks';
import { agentName } from './backends';
import type { BenchServer } from './bench-server';

/** Agents in the ring (the throughput goal is measured on a ring of 100 mock agents). */
export const RING_AGENTS = 100;
/**
 * Messages circulating at once, spread evenly over the ring (`--ring-tokens`). With T in flight the rate is at
 * most T / (one hop's latency): session 6 found 10 too few to show 2,000/s even at zero server cost (a hop
 * took ~13 ms on the quiet box), so the default keeps half the agents busy.
 */
export const DEFAULT_RING_TOKENS = 50;

/** Who forwards the messages: mock agents (in the server) or `/bin/bash` clients on the local backend. */
export type RingClients = 'mock' | 'sh';

/**
 * The ring's shell client (docs/agent.md#2-receiving-work-the-inbox-headless-clients and #3-finishing-a-turn-the-receipt), bash builtins only but one `mv` per turn: it takes the next
 * inbox file by seq, writes `reply.md` forwarding the content to `$1` by a marker, then `done.json` by temp
 * file + rename. Between polls it waits 20 ms on a FIFO of its own (`read -t`, no process). Tokens are plain
 * (`token 3`), so cutting the JSON by its fixed key order is enough here.
 */
export const SH_RING_SCRIPT = [
  'cd "$GENSWARMS_WORKSPACE" || exit 2',
  '/usr/bin/mkfifo .ring-tick && exec 3<>.ring-tick',
  'next=1',
  'while :; do',
  '  printf -v want \'%04d\' "$next"',
  "  f=''",
  '  for g in .inbox/"$want"_*.json; do [ -f "$g" ] && f=$g; done',
  '  if [ -z "$f" ]; then read -t 0.02 -u 3 _; continue; fi',
  '  IFS= read -r line < "$f"',
  '  t=${line##*\\"turn\\":\\"}; t=${t%%\\"*}',
  '  c=${line#*\\"content\\":\\"}; c=${c%%\\",\\"seq\\":*}',
  '  d="$GENSWARMS_TURNS_DIR/$t"',
  '  printf \'<<SWARM_MSG:TO=%s:START>>%s<<SWARM_MSG:END>>\' "$1" "$c" > "$d/reply.md"',
  '  printf \'{"v":1,"turn":"%s","status":"ok"}\' "$t" > "$d/.done.tmp" && /bin/mv -f "$d/.done.tmp" "$d/done.json"',
  '  next=$((next + 1))',
  'done',
].join('\n');

export interface RingResult {
  readonly clients: RingClients;
  readonly agents: number;
  /** Messages circulating at once (absent in results written before `--ring-tokens`: 10). */
  readonly tokens?: number;
  readonly messagesPerS: number;
  readonly serverCpuPct: number;
}

/** A ring a(i) → a(i+1) of mock agents or shell clients: each reply forwards its content to the next agent. */
export function ringConfig(swarm: string, n: number, clients: RingClients = 'mock'): Record<string, unknown> {
  const agents = Array.from({ length: n }, (_, i) => {
    const next = agentName((i + 1) % n);
    if (clients === 'sh') {
      return { name: agentName(i), backend: 'local', client: { command: ['/bin/bash', '-c', SH_RING_SCRIPT, 'ring-client', next] } };
    }
    return {
      name: agentName(i),
      backend: { type: 'mock', opts: { replies: [`<<SWARM_MSG:TO=${next}:START>>{{content}}<<SWARM_MSG:END>>`] } },
    };
  });
  const topology = Array.from({ length: n }, (_, i) => [agentName(i), agentName((i + 1) % n)]);
  return { name: swarm, agents, topology, options: { max_agents: n } };
}

interface MessageRow {
  readonly id: number;
}

/** How long the shell ring's 100 local agents may take to become idle. */
const RING_READY_TIMEOUT_MS = 120_000;

/** Every agent of the ring idle (shell clients are processes: they must be up before the tokens go round). */
async function waitRingIdle(server: BenchServer, swarm: string): Promise<void> {
  const deadline = Date.now() + RING_READY_TIMEOUT_MS;
  for (;;) {
    const res = await server.api<{ agents: Array<{ name: string; state: string }> }>('GET', `/api/swarms/${swarm}/agents`);
    const agents = res.body?.agents ?? [];
    const bad = agents.find((a) => a.state === 'failed' || a.state === 'needs_attention');
    if (bad !== undefined) throw new Error(`ring: agent ${bad.name} is ${bad.state}`);
    if (agents.length === RING_AGENTS && agents.every((a) => a.state === 'idle')) return;
    if (Date.now() > deadline) throw new Error(`ring: not ready after ${RING_READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function lastMessageId(server: BenchServer, swarm: string): Promise<number> {
  const res = await server.api<{ messages: MessageRow[] }>('GET', `/api/swarms/${swarm}/messages?limit=1`);
  return res.body?.messages?.[0]?.id ?? 0;
}

/**
 * Routed messages per second end to end (reply → markers → route → next agent's turn) over `ms`, from the
 * message log's ids, with the server's CPU over the same window (% of one core).
 */
export async function measureRing(
  server: BenchServer,
  ms: number,
  cpuTicks: () => number,
  clients: RingClients = 'mock',
  tokens = DEFAULT_RING_TOKENS,
): Promise<RingResult> {
  if (!Number.isInteger(tokens) || tokens < 1 || tokens > RING_AGENTS) throw new Error(`ring: tokens must be 1…${RING_AGENTS}`);
  const swarm = `ring-${Date.now().toString(36)}`;
  const created = await server.api('POST', '/api/swarms', { config: ringConfig(swarm, RING_AGENTS, clients) });
  if (created.status !== 201) throw new Error(`ring: POST ${created.status}`);
  try {
    if (clients === 'sh') await waitRingIdle(server, swarm);
    for (let i = 0; i < tokens; i++) {
      await server.api('POST', `/api/swarms/${swarm}/agents/${agentName(Math.floor((i * RING_AGENTS) / tokens))}/task`, {
        task: `token ${i}`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // warm up
    const id0 = await lastMessageId(server, swarm);
    const c0 = cpuTicks();
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const id1 = await lastMessageId(server, swarm);
    const seconds = (performance.now() - t0) / 1000;
    return {
      clients,
      agents: RING_AGENTS,
      tokens,
      messagesPerS: (id1 - id0) / seconds,
      serverCpuPct: ((cpuTicks() - c0) / 100 / seconds) * 100,
    };
  } finally {
    await server.api('DELETE', `/api/swarms/${swarm}?purge=true`);
  }
}
