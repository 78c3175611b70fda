import type { SwarmService } from '@genswarms/engine';
import type { ReadinessProbe } from '../route';
import type { HandlersOf } from './route-kit';

/** A readiness check that has not answered in this time counts as not ready (a wedged store must not hang the probe). */
export const READINESS_TIMEOUT_MS = 2000;

/** A readiness answer is reused this long: `/readyz` needs no token, so callers must not drive store queries at will. */
export const READINESS_CACHE_MS = 1000;

/** Knobs of `engineReadiness`; the defaults serve the server, tests shorten them. */
export interface ReadinessOptions {
  readonly probeRunners?: () => boolean;
  readonly timeoutMs?: number;
  readonly cacheMs?: number;
  readonly now?: () => number;
}

function storeAnswers(engine: SwarmService, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = engine.listSwarms().then(
    () => true,
    () => false, // expected: a store that cannot answer is exactly "not ready"
  );
  return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Default probe: an engine is wired, `probeRunners` holds (the runner context resolved its binaries at
 * boot) and the store answers a query (`listSwarms`) within `timeoutMs`. Concurrent probes share one
 * check and an answer is reused for `cacheMs`, so unauthenticated probes cost at most one query a second.
 */
export function engineReadiness(engine: SwarmService | undefined, opts: ReadinessOptions = {}): ReadinessProbe {
  const now = opts.now ?? Date.now;
  const cacheMs = opts.cacheMs ?? READINESS_CACHE_MS;
  let last: { at: number; ready: boolean } | undefined;
  let inflight: Promise<boolean> | undefined;
  const check = async (): Promise<boolean> =>
    engine !== undefined && (opts.probeRunners?.() ?? true) && (await storeAnswers(engine, opts.timeoutMs ?? READINESS_TIMEOUT_MS));
  return () => {
    if (last !== undefined && now() - last.at < cacheMs) return Promise.resolve(last.ready);
    inflight ??= check()
      .catch(() => false) // expected: a probe that throws is a server that is not ready
      .then((ready) => {
        last = { at: now(), ready };
        inflight = undefined;
        return ready;
      });
    return inflight;
  };
}

/**
 * Liveness (the process answers) and readiness (200 `ready` / 503 `not_ready`). They answer `{status}` and
 * nothing else, so they are `public` in the table and skip the token and browser guards: orchestrators probe
 * them without credentials, and a caller learns no more than a 401 already tells.
 */
export const HEALTH_HANDLERS: HandlersOf<'healthz' | 'readyz'> = {
  healthz: () => (_req, res) => {
    res.json({ status: 'ok' });
  },
  readyz: (ctx) => async (_req, res) => {
    const ready = !ctx.closing() && (await ctx.readiness());
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready' });
  },
};

export type { ReadinessProbe };
