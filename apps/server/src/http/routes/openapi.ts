import type { RequestHandler } from 'express';
import { buildOpenApiDocument } from '../openapi/build-document';
import type { HandlersOf } from './route-kit';

/** The OpenAPI 3.1 document (full scope, like every route), built once per app on first request. */
function openApiDocument(): RequestHandler {
  let document: Record<string, unknown> | undefined;
  return (_req, res) => {
    document ??= buildOpenApiDocument();
    res.json(document);
  };
}

export const OPENAPI_HANDLERS: HandlersOf<'getOpenApi'> = { getOpenApi: openApiDocument };
