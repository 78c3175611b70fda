/**
 * The metering egress's metrics: every metered call (from the engine's meter, here through the service port)
 * counts in genswarms_llm_requests_total by status, its tokens in genswarms_llm_tokens_total by kind, and a
 * forwarded call's duration in genswarms_llm_request_duration_seconds.
 */
import type { LlmCallListener, SwarmService } from '@genswarms/engine';
import { createServerMetrics } from '../src/metrics/server-metrics';
import { parsePromText } from './support/prom-text';

describe('LLM metrics', () => {
  it('counts calls by status, tokens by kind, and forwarded durations', async () => {
    const listeners: LlmCallListener[] = [];
    const service = {
      onPush: () => () => undefined,
      onLlmCall: (l: LlmCallListener) => {
        listeners.push(l);
        return () => undefined;
      },
    } as unknown as SwarmService; // a fake of the port: only the two subscriptions are used
    const metrics = createServerMetrics();
    metrics.attachEngine(service);
    const call = { swarm: 's', agent: 'a', durationMs: 1500, promptTokens: 10, completionTokens: 5, refusedBy: null };
    for (const l of listeners) {
      l({ ...call, status: 200 });
      l({ ...call, status: 200 });
      l({ ...call, status: 429, durationMs: 0, promptTokens: 0, completionTokens: 0, refusedBy: 'budget' });
      l({ ...call, status: null, promptTokens: 0, completionTokens: 0 });
    }
    const families = parsePromText(await metrics.render());
    const samples = (name: string): Array<{ labels: Record<string, string>; value: number }> =>
      (families.get(name)?.samples ?? []).filter((x) => x.name === name);
    expect(samples('genswarms_llm_requests_total')).toEqual(
      expect.arrayContaining([
        { name: 'genswarms_llm_requests_total', labels: { swarm: 's', agent: 'a', status: '200' }, value: 2 },
        { name: 'genswarms_llm_requests_total', labels: { swarm: 's', agent: 'a', status: '429' }, value: 1 },
        { name: 'genswarms_llm_requests_total', labels: { swarm: 's', agent: 'a', status: 'none' }, value: 1 },
      ]),
    );
    expect(samples('genswarms_llm_tokens_total').map((x) => [x.labels['kind'], x.value])).toEqual([
      ['prompt', 20],
      ['completion', 10],
    ]);
    expect(families.get('genswarms_llm_request_duration_seconds')?.samples.find((x) => x.name.endsWith('_count'))?.value).toBe(3);
  });
});
