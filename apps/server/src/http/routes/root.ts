import { SERVER_VERSION } from '../../version';
import type { HandlersOf } from './route-kit';

/** The API descriptor (docs/rest-api.md): `endpoints` lists every route of the app. */
export const ROOT_HANDLERS: HandlersOf<'getApi'> = {
  getApi: (ctx) => (_req, res) => {
    res.json({
      name: 'genswarms',
      version: SERVER_VERSION,
      endpoints: ctx.endpoints,
      websocket: { path: '/socket.io', namespace: '/swarm' },
    });
  },
};
