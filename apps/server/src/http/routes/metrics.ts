import type { HandlersOf } from './route-kit';

/** Prometheus text format, behind the token like every route but the health probes (docs/observability.md). */
export const METRICS_HANDLERS: HandlersOf<'metrics'> = {
  metrics: (ctx) => async (_req, res) => {
    const text = await ctx.metrics.render();
    res.setHeader('Content-Type', ctx.metrics.contentType);
    res.send(text);
  },
};
