import { Router } from 'express';
import type { SwarmService } from '@genswarms/engine';

/** Whether the server can take work: the store answers and the runners were probed. Never throws. */
export type ReadinessProbe = () => Promise<boolean>;

/** A readiness check that has not answered in this time counts as not ready (a wedged store must not hang the probe). */
export const READINESS_TIMEOUT_MS = 2000;

/** The two public paths, answered before the token check (docs/security.md, "Health endpoints"). */
export const HEALTH_ENDPOINTS: readonly string[] = ['GET /healthz', 'GET /readyz'];

/**
 * Default probe: an engine is wired, its store answers a query (`listSwarms`) and, when given,
 * `probeRunners` (the runner context resolved its binaries at boot) holds.
 */
export function engineReadiness(
  engine: SwarmService | undefined,
  probeRunners: () => boolean = () => true,
  timeoutMs: number = READINESS_TIMEOUT_MS,
): ReadinessProbe {
  return async () => {
    if (engine === undefined || !probeRunners()) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      const answered = engine.listSwarms().then(
        () => true,
        () => false, // expected: a store that cannot answer is exactly "not ready"
      );
      return await Promise.race([answered, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * `GET /healthz` (the process answers) and `GET /readyz` (200 `ready` / 503 `not_ready`). They answer
 * `{status}` and nothing else, so they skip the token and browser guards: orchestrators probe them
 * without credentials, and a caller learns no more than a 401 already tells.
 */
export function healthRouter(opts: { readiness: ReadinessProbe; closing: () => boolean }): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const ready = !opts.closing() && (await opts.readiness());
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready' });
  });
  return router;
}
