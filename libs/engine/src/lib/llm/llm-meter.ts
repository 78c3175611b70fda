/**
 * The engine's side of the metering egress relay: one `EgressMeter` per isolated agent, deciding each call
 * against the budgets and rate limits that apply to it (llm-scopes.ts), and recording usage, budget counts and
 * the audit trail in the store (one transaction per step, so counts survive a restart or a SIGKILL).
 */
import type { Admission, EgressMeter, RelayOutcome, RelayRejection, RelayRequest } from '@genswarms/egress';
import type { EventBus } from '../events/event-bus';
import type { LlmUsageTable, NewLlmRequestEntry, ScopeWindow } from '../store/llm-usage';
import type { Clock } from '../util/clock';
import { LlmEvents } from './llm-events';
import { exhaustedLimit, scopesOf, windowAt, type MeterHost, type Scope } from './llm-scopes';
import { RateBuckets } from './rate-buckets';

/** Bytes per token when a successful call reported no usage (a stream without `include_usage`): the call is charged an estimate, never nothing. */
export const ESTIMATED_BYTES_PER_TOKEN = 4;

/** One LLM call as the metrics see it (status `429` for a refusal). */
export interface LlmCallRecord {
  readonly swarm: string;
  readonly agent: string;
  readonly status: number | null;
  readonly durationMs: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly refusedBy: 'budget' | 'rate_limit' | 'protocol' | null;
}

export type LlmCallListener = (call: LlmCallRecord) => void;

interface Ticket {
  readonly at: string;
  readonly request: RelayRequest;
  readonly windows: readonly ScopeWindow[];
  readonly scopes: readonly Scope[];
}

export class LlmMeter {
  private readonly rates = new RateBuckets();
  private readonly listeners = new Set<LlmCallListener>();
  private readonly notices: LlmEvents;

  constructor(
    private readonly table: LlmUsageTable,
    private readonly clock: Clock,
    events: EventBus,
  ) {
    this.notices = new LlmEvents(events, clock);
  }

  onCall(listener: LlmCallListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The meter of `agent`'s forwarder; it reads `host` on every call, so budget changes apply at once. */
  forAgent(host: MeterHost, agent: string): EgressMeter {
    return {
      admit: (request) => this.admit(host, agent, request),
      settle: (ticket, outcome) => this.settle(host.swarm, agent, ticket as Ticket, outcome),
      reject: (rejection) => this.reject(host.swarm, agent, rejection),
    };
  }

  private admit(host: MeterHost, agent: string, request: RelayRequest): Admission {
    const now = this.clock.now().getTime();
    const swarm = host.swarm;
    const scopes = scopesOf(host, agent);
    const windows = scopes.map((s) => {
      const stored = this.table.scope(swarm, s.key);
      return { scope: s, stored, ...windowAt(s, stored, now) };
    });
    for (const w of windows) {
      const limit = exhaustedLimit(w.scope, w);
      if (limit === null) {
        if (w.stored?.exhaustedNotified === true && w.stored.windowStart === w.window.windowStart) this.table.rearm(swarm, w.scope.key);
        continue;
      }
      const retry = w.scope.windowMs === undefined ? undefined : (w.window.windowStart + w.scope.windowMs - now) / 1000;
      const first = this.recordRefusal(swarm, agent, request, 'budget', w.window);
      if (first) this.notices.budgetExhausted(swarm, agent, w.scope, limit);
      const whose = w.scope.kind === 'swarm' ? "the swarm's" : "this agent's";
      return refusal('budget_exhausted', `${whose} LLM ${limit} budget is exhausted`, retry);
    }
    for (const w of windows) {
      const wait = this.rates.wait(rateKey(swarm, w.scope), w.scope.limits.rate_limit, now);
      if (wait <= 0) continue;
      this.recordRefusal(swarm, agent, request, 'rate_limit');
      this.notices.rateLimited(swarm, agent, w.scope, wait);
      const whose = w.scope.kind === 'swarm' ? "the swarm's" : "this agent's";
      return refusal('rate_limited', `${whose} LLM rate limit is reached; retry after the Retry-After seconds`, wait);
    }
    this.table.admit(
      swarm,
      agent,
      windows.map((w) => w.window),
    ); // throws when the store cannot write: the relay answers 503
    for (const w of windows) this.rates.take(rateKey(swarm, w.scope), w.scope.limits.rate_limit, now);
    const ticket: Ticket = { at: new Date(now).toISOString(), request, windows: windows.map((w) => w.window), scopes };
    return { kind: 'admit', ticket };
  }

  private settle(swarm: string, agent: string, ticket: Ticket, outcome: RelayOutcome): void {
    const now = this.clock.now().getTime();
    const tokens = tokensOf(ticket.request, outcome);
    const entry: NewLlmRequestEntry = {
      at: ticket.at,
      method: ticket.request.method,
      path: ticket.request.path,
      status: outcome.status,
      duration_ms: outcome.durationMs,
      bytes_in: outcome.bytesIn,
      bytes_out: outcome.bytesOut,
      ...(tokens === null ? {} : tokens),
      ...(outcome.failure === null ? {} : { failure: outcome.failure }),
    };
    this.table.settle(swarm, agent, ticket.windows, entry);
    for (const s of ticket.scopes) this.rates.charge(rateKey(swarm, s), s.limits.rate_limit, entry.total_tokens ?? 0, now);
    this.tell({
      swarm,
      agent,
      status: outcome.status,
      durationMs: outcome.durationMs,
      promptTokens: entry.prompt_tokens ?? 0,
      completionTokens: entry.completion_tokens ?? 0,
      refusedBy: null,
    });
  }

  private reject(swarm: string, agent: string, rejection: RelayRejection): void {
    const request = { method: rejection.method ?? '-', path: rejection.path ?? '-' };
    this.recordRefusal(swarm, agent, request, 'protocol', undefined, { status: rejection.status, failure: rejection.reason });
  }

  /** Records a call the egress answered itself; true when it is the first budget refusal of its window. */
  private recordRefusal(
    swarm: string,
    agent: string,
    request: RelayRequest,
    by: 'budget' | 'rate_limit' | 'protocol',
    exhausted?: ScopeWindow,
    extra: { status?: number; failure?: string } = {},
  ): boolean {
    const status = extra.status ?? 429;
    const entry: NewLlmRequestEntry = {
      at: this.clock.now().toISOString(),
      method: request.method,
      path: request.path,
      status,
      duration_ms: 0,
      bytes_in: 0,
      bytes_out: 0,
      refused_by: by,
      ...(extra.failure === undefined ? {} : { failure: extra.failure }),
    };
    let first = false;
    try {
      first = this.table.refuse(swarm, agent, entry, exhausted);
    } catch {
      // best-effort: the refusal stands (nothing is forwarded) even when the store cannot record it
    }
    this.tell({ swarm, agent, status, durationMs: 0, promptTokens: 0, completionTokens: 0, refusedBy: by });
    return first;
  }

  private tell(call: LlmCallRecord): void {
    for (const l of this.listeners) {
      try {
        l(call);
      } catch {
        // best-effort: a failing metrics listener never breaks the metering
      }
    }
  }
}

function rateKey(swarm: string, scope: Scope): string {
  return `${swarm}\0${scope.key}`;
}

function refusal(type: 'budget_exhausted' | 'rate_limited', message: string, retryAfterS: number | undefined): Admission {
  return { kind: 'refuse', type, message, ...(retryAfterS === undefined ? {} : { retryAfterS }) };
}

/** The tokens a call is charged: reported (or at the cap when untrusted), estimated for a 2xx POST that reported none, else none. */
function tokensOf(
  request: RelayRequest,
  outcome: RelayOutcome,
): Pick<NewLlmRequestEntry, 'prompt_tokens' | 'completion_tokens' | 'total_tokens' | 'usage'> | null {
  const u = outcome.usage;
  if (u !== null) {
    const usage = u.trusted ? 'reported' : 'untrusted';
    return { prompt_tokens: u.promptTokens, completion_tokens: u.completionTokens, total_tokens: u.totalTokens, usage };
  }
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  if (!ok || request.method !== 'POST') return null;
  const prompt = Math.ceil(outcome.bytesIn / ESTIMATED_BYTES_PER_TOKEN);
  const completion = Math.ceil(outcome.bytesOut / ESTIMATED_BYTES_PER_TOKEN);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, usage: 'estimated' };
}
