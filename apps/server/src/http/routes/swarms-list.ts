import type { RouteModule } from '../route-module';

/** `GET /api/swarms`: `{swarms: []}` until an engine is injected. */
export const swarmsListRoute: RouteModule = {
  name: 'swarms-list',
  endpoints: ['GET /api/swarms'],
  register(router, ctx): void {
    router.get('/api/swarms', async (_req, res) => {
      const swarms = ctx.engine === undefined ? [] : await ctx.engine.listSwarms();
      res.json({ swarms });
    });
  },
};
