import type { ServerMetrics } from '../../metrics/server-metrics';
import type { RouteModule } from '../route-module';

/** `GET /metrics`: Prometheus text format, behind the token like every route but the health probes (docs/observability.md). */
export function createMetricsRoute(metrics: ServerMetrics): RouteModule {
  return {
    name: 'metrics',
    endpoints: ['GET /metrics'],
    register(router): void {
      router.get('/metrics', async (_req, res) => {
        const text = await metrics.render();
        res.setHeader('Content-Type', metrics.contentType);
        res.send(text);
      });
    },
  };
}
