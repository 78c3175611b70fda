import { Counter, Histogram, type Registry } from 'prom-client';
import type { LlmCallRecord, SwarmService } from '@genswarms/engine';

/** Seconds; an LLM call takes from a few hundred ms to minutes of streaming. */
const LLM_BUCKETS_S = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The metering egress's instruments: calls by status, tokens by kind, and call durations. */
export interface LlmInstruments {
  observe(call: LlmCallRecord): void;
}

/**
 * `genswarms_llm_requests_total{swarm,agent,status}` (`status`: the HTTP status, `429` for a refusal, `none`
 * when no answer came), `genswarms_llm_tokens_total{swarm,agent,kind}` (`prompt`, `completion`),
 * `genswarms_llm_request_duration_seconds` (forwarded calls only). Counted from this server's start; the
 * lasting totals are `llm_usage` on the agent status.
 */
export function createLlmInstruments(registers: Registry[]): LlmInstruments {
  const requests = new Counter({
    name: 'genswarms_llm_requests_total',
    help: 'LLM calls through the metering egress, by swarm, agent and HTTP status (429 for a refusal, none without an answer)',
    labelNames: ['swarm', 'agent', 'status'],
    registers,
  });
  const tokens = new Counter({
    name: 'genswarms_llm_tokens_total',
    help: 'LLM tokens through the metering egress, by swarm, agent and kind (prompt, completion)',
    labelNames: ['swarm', 'agent', 'kind'],
    registers,
  });
  const duration = new Histogram({
    name: 'genswarms_llm_request_duration_seconds',
    help: 'From an LLM call to the last byte of its answer (forwarded calls)',
    buckets: LLM_BUCKETS_S,
    registers,
  });
  return {
    observe(call): void {
      const labels = { swarm: call.swarm, agent: call.agent };
      requests.inc({ ...labels, status: call.status === null ? 'none' : String(call.status) });
      if (call.promptTokens > 0) tokens.inc({ ...labels, kind: 'prompt' }, call.promptTokens);
      if (call.completionTokens > 0) tokens.inc({ ...labels, kind: 'completion' }, call.completionTokens);
      if (call.refusedBy === null) duration.observe(call.durationMs / 1000);
    },
  };
}

/** Feeds the instruments from the engine's metered calls; returns the unsubscribe function. */
export function observeLlmCalls(engine: SwarmService, m: LlmInstruments): () => void {
  // edge specs pass a partial service without the meter: nothing to observe then
  if (typeof engine.onLlmCall !== 'function') return () => undefined;
  const off: unknown = engine.onLlmCall((call) => m.observe(call));
  return typeof off === 'function' ? (off as () => void) : () => undefined;
}
