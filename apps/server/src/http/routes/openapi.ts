import { buildOpenApiDocument } from '../openapi/build-document';
import type { RouteModule } from '../route-module';

/** `GET /api/openapi.json` (full scope, like every route): the OpenAPI 3.1 document, built once per app. */
export const openapiRoute: RouteModule = {
  name: 'openapi',
  endpoints: ['GET /api/openapi.json'],
  register(router): void {
    let document: Record<string, unknown> | undefined;
    router.get('/api/openapi.json', (_req, res) => {
      document ??= buildOpenApiDocument();
      res.json(document);
    });
  },
};
