import { CONFIG_MAX_BYTES, validateConfig } from '@genswarms/ir-gate';
import { agentName, BENCH_BACKENDS, swarmConfig } from './backends';
import { hostLimitOf } from './bench-run';

describe('the bench swarm config', () => {
  test.each(BENCH_BACKENDS.map((b) => [b]))('declares 10,000 %s agents in one entry, far under the body limit', (backend) => {
    const config = swarmConfig(backend, 'b', 10000);
    expect(JSON.stringify(config).length).toBeLessThan(CONFIG_MAX_BYTES / 1000);
    const checked = validateConfig(config);
    if (checked.kind !== 'ok') throw new Error(JSON.stringify(checked.issues));
    expect(checked.summary.agent_count).toBe(10000);
    expect([checked.summary.agents[0], checked.summary.agents[9999]]).toEqual([agentName(0), agentName(9999)]);
  });

  test.each([
    [
      { status: 503, body: { error: 'host_limit', limit: 'RLIMIT_NOFILE', value: 20000, need: 30300, fix: 'ulimit -n 30300' } },
      'RLIMIT_NOFILE',
    ],
    [{ status: 503, body: { error: 'agent_ids_exhausted' } }, undefined],
    [{ status: 503, body: { error: 'host_limit', limit: 1 } }, undefined],
    [{ status: 400, body: undefined }, undefined],
  ])('reads a host_limit refusal: %j', (answer, limit) => {
    expect(hostLimitOf(answer)?.limit).toBe(limit);
  });
});
