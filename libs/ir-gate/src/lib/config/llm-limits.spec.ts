import { configToState } from '../convert/config-to-state';
import { stateToConfig } from '../convert/state-to-config';
import { applyOverlay } from '../policy/apply-op';
import { SwarmConfigSchema } from './swarm-schema';
import { BUDGET_WINDOW_MAX_MS, llmLimitsOf, parseIsoDuration } from './llm-limits';

const withAgent = (extra: Record<string, unknown>): unknown => ({ name: 's', agents: [{ name: 'a', network: 'isolated', ...extra }] });
const withOptions = (options: Record<string, unknown>): unknown => ({ name: 's', agents: [{ name: 'a' }], options });

describe('budget and rate_limit in the config', () => {
  test.each([
    ['a request budget for life', { budget: { requests: 3 } }],
    ['a token budget per hour', { budget: { tokens: 100000, window: 'PT1H' } }],
    ['both, per two weeks', { budget: { requests: 10, tokens: 5, window: 'P2W' } }],
    ['a day and a half', { budget: { requests: 1, window: 'P1DT12H' } }],
    ['a rate limit in calls', { rate_limit: { requests_per_minute: 60 } }],
    ['a rate limit in tokens', { rate_limit: { tokens_per_minute: 90000 } }],
  ])('accepts %s on an agent and under options', (_label, limits) => {
    expect(SwarmConfigSchema.safeParse(withAgent(limits)).success).toBe(true);
    expect(SwarmConfigSchema.safeParse(withOptions(limits)).success).toBe(true);
  });

  test.each([
    ['an empty budget', { budget: {} }],
    ['an empty rate limit', { rate_limit: {} }],
    ['zero requests', { budget: { requests: 0 } }],
    ['negative tokens', { budget: { tokens: -1 } }],
    ['a fraction', { budget: { requests: 1.5 } }],
    ['a string count', { budget: { requests: '3' } }],
    ['a count beyond the maximum', { budget: { requests: 1e10 } }],
    ['Infinity as JSON cannot say it, a huge rate can', { rate_limit: { requests_per_minute: 1e7 } }],
    ['an unknown budget key', { budget: { requests: 1, dollars: 5 } }],
    ['__proto__ in a budget', { budget: JSON.parse('{"requests":1,"__proto__":{"x":1}}') as unknown }],
    ['a window in months (varies in length)', { budget: { requests: 1, window: 'P1M' } }],
    ['a window in years', { budget: { requests: 1, window: 'P1Y' } }],
    ['a zero window', { budget: { requests: 1, window: 'PT0S' } }],
    ['a window of a year and a day', { budget: { requests: 1, window: 'P367D' } }],
    ['a bare P', { budget: { requests: 1, window: 'P' } }],
    ['a dangling T', { budget: { requests: 1, window: 'P1DT' } }],
    ['a fractional window', { budget: { requests: 1, window: 'PT0.5S' } }],
    ['a window with NUL', { budget: { requests: 1, window: 'PT1H\u0000' } }],
    ['a window as a number', { budget: { requests: 1, window: 3600 } }],
    ['a budget as a list', { budget: [1] }],
  ])('refuses %s (on an agent and under options)', (_label, limits) => {
    expect(SwarmConfigSchema.safeParse(withAgent(limits)).success).toBe(false);
    expect(SwarmConfigSchema.safeParse(withOptions(limits)).success).toBe(false);
  });

  test('config.budget is reserved (the agent field is the one place)', () => {
    expect(SwarmConfigSchema.safeParse(withAgent({ config: { budget: { requests: 1 } } })).success).toBe(false);
  });

  test.each([
    ['PT1H', 3_600_000],
    ['P1D', 86_400_000],
    ['P2W', 14 * 86_400_000],
    ['PT90M', 5_400_000],
    ['P1DT1H1M1S', 90_061_000],
    ['P366D', BUDGET_WINDOW_MAX_MS],
    ['PT1M', 60_000],
  ])('parseIsoDuration(%s) = %d ms', (text, ms) => {
    expect(parseIsoDuration(text)).toBe(ms);
  });

  test('llmLimitsOf reads only well-formed own fields', () => {
    expect(llmLimitsOf({ budget: { requests: 2 }, rate_limit: { requests_per_minute: 0 } })).toEqual({ budget: { requests: 2 } });
    expect(llmLimitsOf(Object.create({ budget: { requests: 2 } }) as unknown)).toEqual({});
    expect(llmLimitsOf(null)).toEqual({});
  });
});

describe('a limit removed at run time (null in the overlay)', () => {
  test('is left out of the effective config, which the schema accepts again', () => {
    const state = configToState({
      name: 's',
      agents: [{ name: 'a', network: 'isolated', budget: { requests: 1 } }],
      options: { budget: { tokens: 5 } },
    });
    const patched = applyOverlay(state, [
      { seq: 1, op: 'update_config', payload: { target: 'a', config: { budget: null } } },
      { seq: 2, op: 'set_options', payload: { options: { budget: null, max_agents: 3 } } },
    ]);
    if (patched.kind !== 'ok') throw new Error('overlay refused');
    const config = stateToConfig(patched.state);
    expect(config.agents[0]).not.toHaveProperty('budget');
    expect(config.options).toEqual({ max_agents: 3 });
    expect(SwarmConfigSchema.safeParse(config).success).toBe(true);
  });
});
