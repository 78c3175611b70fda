/** `budget_exhausted` (once per exhaustion) and `rate_limited` (coalesced) events of the metering egress. */
import type { EventBus, EmitInput } from '../events/event-bus';
import type { Clock } from '../util/clock';
import type { Scope } from './llm-scopes';

/** At most one `rate_limited` event per agent per this period; the refusals in between are counted into the next. */
export const RATE_LIMITED_EVENT_EVERY_MS = 60_000;

export class LlmEvents {
  /** Per `swarm\0agent`: when the last `rate_limited` went out, and refusals since. */
  private readonly rateNotices = new Map<string, { at: number; since: number }>();

  constructor(
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  budgetExhausted(swarm: string, agent: string, scope: Scope, limit: 'requests' | 'tokens'): void {
    const whose = scope.kind === 'swarm' ? `the swarm's ${limit} budget` : `its ${limit} budget`;
    const window = scope.limits.budget?.window;
    this.emit({
      type: 'budget_exhausted',
      swarm,
      agent,
      message: `Agent ${agent} reached ${whose}${window === undefined ? '' : ` (per ${window})`}: its LLM calls are refused with 429 until the budget is raised${window === undefined ? '' : ' or the window ends'}.`,
      metadata: {
        scope: scope.kind,
        group: scope.key,
        limit,
        budget: scope.limits.budget?.[limit] ?? null,
        ...(window === undefined ? {} : { window }),
      },
    });
  }

  rateLimited(swarm: string, agent: string, scope: Scope, waitS: number): void {
    const key = `${swarm}\0${agent}`;
    const now = this.clock.now().getTime();
    const last = this.rateNotices.get(key);
    if (last !== undefined && now - last.at < RATE_LIMITED_EVENT_EVERY_MS) {
      last.since += 1;
      return;
    }
    const refused = (last?.since ?? 0) + 1;
    this.rateNotices.set(key, { at: now, since: 0 });
    const whose = scope.kind === 'swarm' ? "the swarm's" : 'its';
    this.emit({
      type: 'rate_limited',
      swarm,
      agent,
      message: `Agent ${agent} is over ${whose} LLM rate limit: ${refused} call(s) refused with 429 (retry after ${Math.ceil(waitS)} s).`,
      metadata: { scope: scope.kind, group: scope.key, refused, retry_after_s: Math.ceil(waitS), ...scope.limits.rate_limit },
    });
  }

  private emit(input: EmitInput): void {
    void this.events
      .emit(input)
      .catch((error: unknown) =>
        this.events.reportFailure({ where: 'llm_meter', swarm: input.swarm, agent: input.agent, error, metadata: { event: input.type } }),
      );
  }
}
