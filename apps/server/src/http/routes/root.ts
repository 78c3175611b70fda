import type { RouteModule } from '../route-module';
import { SERVER_VERSION } from '../../version';

/** `GET /`: the API descriptor (docs/rest-api.md). `endpoints` is filled from every registered module. */
export function createRootRoute(allEndpoints: () => readonly string[]): RouteModule {
  return {
    name: 'root',
    endpoints: ['GET /'],
    register(router): void {
      router.get('/', (_req, res) => {
        res.json({
          name: 'genswarms',
          version: SERVER_VERSION,
          endpoints: allEndpoints(),
          websocket: { path: '/socket.io', namespace: '/swarm' },
        });
      });
    },
  };
}
