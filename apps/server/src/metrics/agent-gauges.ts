import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { AgentStatus, SwarmService } from '@genswarms/engine';

async function readAgents(engine: SwarmService): Promise<AgentStatus[]> {
  const out: AgentStatus[] = [];
  const { swarms } = await engine.listSwarms();
  for (const swarm of swarms) {
    if (swarm.status !== 'running') continue;
    // expected: a swarm stopped between the two reads has no agents to report
    const { agents } = await engine.listAgents(swarm.name).catch(() => ({ agents: [] as AgentStatus[] }));
    out.push(...agents);
  }
  return out;
}

/**
 * Scrape-time gauges read from the service (the store and the live sessions): agents of running
 * swarms by state and backend, and each agent's inbox depth. Both gauges collect in the same tick of a
 * scrape and share one read; each is reset first, so removed agents and stopped swarms vanish.
 */
export function collectAgentGauges(engine: SwarmService, registers: Registry[]): void {
  let pending: Promise<AgentStatus[]> | undefined;
  const shared = (): Promise<AgentStatus[]> =>
    (pending ??= readAgents(engine).finally(() => {
      pending = undefined;
    }));
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    fill: (g: Gauge<L>, agents: AgentStatus[]) => void,
  ): void => {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers,
      async collect(): Promise<void> {
        const agents = await shared();
        this.reset();
        fill(this, agents);
      },
    });
  };
  gauge('genswarms_agents', 'Agents of running swarms, by state and backend', ['state', 'backend'], (g, agents) => {
    for (const a of agents) g.inc({ state: a.state, backend: a.backend });
  });
  gauge('genswarms_agent_inbox_depth', 'Items waiting in an agent inbox, by swarm and agent', ['swarm', 'agent'], (g, agents) => {
    for (const a of agents) g.set({ swarm: a.swarm, agent: a.name }, a.inbox_size);
  });
}
