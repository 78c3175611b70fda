/** The API's own operations: its descriptor, its OpenAPI document, the health probes and the metrics. */
import { z } from 'zod';
import { ok } from './kit';
import type { Operation } from './operation';

/** The answer of `GET /api/openapi.json`, described loosely (its own schema is the OpenAPI 3.1 one). */
const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.string().describe('3.1.x'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.looseObject({}),
  })
  .describe('An OpenAPI 3.1 document');
const HealthStatusSchema = z.object({ status: z.literal('ok') }).describe('The process answers');
const ReadyStatusSchema = z.object({ status: z.literal('ready') }).describe('The store answers and the runners were probed');
const NotReadyStatusSchema = z.object({ status: z.literal('not_ready') }).describe('Not ready, or shutting down');

export const API_OPERATIONS = [
  {
    method: 'get',
    path: '/',
    operationId: 'getApi',
    tag: 'api',
    summary: 'The API descriptor',
    scope: 'full',
    success: ok('ApiDescriptor'),
    errors: [],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApi',
    tag: 'api',
    summary: 'This OpenAPI 3.1 document',
    scope: 'full',
    success: { status: 200, name: 'OpenApiDocument', schema: OpenApiDocumentSchema },
    errors: [],
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    tag: 'health',
    summary: 'Liveness',
    scope: 'public',
    success: { status: 200, name: 'HealthStatus', schema: HealthStatusSchema },
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    tag: 'health',
    summary: 'Readiness',
    scope: 'public',
    success: { status: 200, name: 'ReadyStatus', schema: ReadyStatusSchema },
    otherResponses: { '503': { name: 'NotReadyStatus', schema: NotReadyStatusSchema } },
    errors: [],
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'health',
    summary: 'Prometheus metrics (text exposition format)',
    scope: 'full',
    success: {
      status: 200,
      name: 'Metrics',
      schema: z.string().describe('Prometheus text format 0.0.4'),
      text: 'text/plain; version=0.0.4',
    },
    errors: [],
  },
] as const satisfies readonly Operation[];
