import type { AgentLaunchSpec, RunnerContext } from '../port';
import { RunnerError } from '../errors/runner-error';
import type { ClientAdapter, ClientAdapterInput } from './adapters/client-adapter';
import { inferEndpointApis, type EndpointApi } from './endpoint-api';

/** Who said what the endpoint speaks (named in the refusal, so the operator knows what to change). */
export type EndpointApiSource = 'endpoint_api' | 'GENSWARMS_LLM_ENDPOINT_API' | 'default';

/**
 * The protocols of the endpoint in effect: the agent's own `endpoint` with its `endpoint_api`, else the
 * server's GENSWARMS_LLM_ENDPOINT with GENSWARMS_LLM_ENDPOINT_API; undeclared, the host decides
 * (`inferEndpointApis`). Undefined when there is no endpoint.
 */
export function endpointApisOf(
  spec: Pick<AgentLaunchSpec, 'endpoint' | 'endpointApis'>,
  ctx: Pick<RunnerContext, 'llm'>,
): { apis: readonly EndpointApi[]; source: EndpointApiSource } | undefined {
  const own = spec.endpoint?.trim();
  if (own !== undefined && own !== '') {
    return spec.endpointApis === undefined
      ? { apis: inferEndpointApis(own), source: 'default' }
      : { apis: spec.endpointApis, source: 'endpoint_api' };
  }
  const server = ctx.llm.defaultEndpoint;
  if (server === undefined) return undefined;
  const declared = ctx.llm.endpointApis;
  return declared === undefined
    ? { apis: inferEndpointApis(server), source: 'default' }
    : { apis: declared, source: 'GENSWARMS_LLM_ENDPOINT_API' };
}

/**
 * Plan-time refusal (`client_endpoint_incompatible`, details `client`, `reason`, …) of an endpoint the client
 * cannot use: another wire protocol, no key where the client needs one, a query string (none of the clients
 * can carry one). No endpoint at all is not refused: the client keeps its vendor defaults. A model name the
 * adapter cannot write safely → `validation_failed`.
 */
export function assertClientEndpoint(
  spec: AgentLaunchSpec,
  ctx: Pick<RunnerContext, 'llm'>,
  adapter: ClientAdapter,
  input: ClientAdapterInput,
): void {
  const refusal = adapter.refuse?.(input);
  if (refusal !== undefined) throw new RunnerError('validation_failed', refusal, { agent: spec.agent, details: { client: adapter.name } });
  const endpoint = input.endpoint;
  if (endpoint === undefined) return;
  const refuse = (reason: string, message: string, extra: Record<string, unknown> = {}): RunnerError =>
    new RunnerError('client_endpoint_incompatible', message, { agent: spec.agent, details: { client: adapter.name, reason, ...extra } });
  if (new URL(endpoint.url).search !== '') {
    throw refuse('endpoint_query', `${adapter.name} cannot send the endpoint's query string; use an endpoint without one`);
  }
  const declared = endpointApisOf(spec, ctx);
  if (declared !== undefined && !declared.apis.includes(adapter.api)) {
    const how =
      declared.source === 'default'
        ? 'undeclared (set endpoint_api on the agent, or GENSWARMS_LLM_ENDPOINT_API for the server endpoint)'
        : `declared by ${declared.source}`;
    throw refuse('wire_api', `${adapter.name} speaks ${adapter.api}; the endpoint speaks ${declared.apis.join(', ')} (${how})`, {
      client_api: adapter.api,
      endpoint_apis: [...declared.apis],
      declared_by: declared.source,
    });
  }
  if (adapter.needsKey && !endpoint.hasKey) {
    throw refuse(
      'no_api_key',
      `${adapter.name} needs an API key for its endpoint and none reaches it (set api_key, or trust the endpoint)`,
    );
  }
  if (adapter.needsModel && input.model === undefined) {
    throw new RunnerError('validation_failed', `${adapter.name} needs model to use an endpoint (its provider entry names one model)`, {
      agent: spec.agent,
      details: { client: adapter.name },
    });
  }
}
