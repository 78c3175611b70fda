/**
 * Every REST operation the server routes: the one table of method, path, operationId, token scope and the
 * zod schemas of its parameters, body and answers. Express registers routes from it (a handler is bound
 * per `operationId` in routes/index.ts), `GET /` lists it, the OpenAPI document and so the typed client are
 * generated from it. Its order is the document's.
 */
import { AGENT_OPERATIONS } from './agent-operations';
import { API_OPERATIONS } from './api-operations';
import { GIT_OPERATIONS } from './git-operations';
import { GRAPH_OPERATIONS } from './graph-operations';
import { LLM_OPERATIONS } from './llm-operations';
import type { Operation } from './operation';
import { READ_OPERATIONS } from './read-operations';
import { SWARM_OPERATIONS } from './swarm-operations';

type IdOf<T extends readonly Operation[]> = T[number]['operationId'];

/** The id of one operation of the table (the handler map must name each one). */
export type OperationId =
  | IdOf<typeof API_OPERATIONS>
  | IdOf<typeof SWARM_OPERATIONS>
  | IdOf<typeof AGENT_OPERATIONS>
  | IdOf<typeof GIT_OPERATIONS>
  | IdOf<typeof GRAPH_OPERATIONS>
  | IdOf<typeof READ_OPERATIONS>
  | IdOf<typeof LLM_OPERATIONS>;

export const OPERATIONS: readonly Operation[] = [
  ...API_OPERATIONS,
  ...SWARM_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...GIT_OPERATIONS,
  ...GRAPH_OPERATIONS,
  ...READ_OPERATIONS,
  ...LLM_OPERATIONS,
];

export type { ErrorSpec, Operation } from './operation';
export { PATH_PARAMS } from './operation';
