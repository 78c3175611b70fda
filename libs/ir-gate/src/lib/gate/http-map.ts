import type { IrError } from '../state/types';

export type HttpErrorBody = { error: string; message: string; [detail: string]: unknown };
export type HttpError = { status: number; body: HttpErrorBody };

const pick = (e: IrError, keys: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => e[k] !== undefined).map((k) => [k, e[k]]));

function nameOf(e: IrError): Record<string, unknown> {
  const name = e['name'] ?? e['base_name'] ?? e['target'];
  return typeof name === 'string' ? { name } : {};
}

/**
 * docs/ir.md HTTP mapping of a runtime IR refusal. `objectPatch` gives the object-config PATCH
 * status for forbidden keys (422). Codes without an HTTP meaning become 400 ir_validation_failed.
 */
export function mapIrErrorToHttp(error: IrError, opts: { objectPatch?: boolean } = {}): HttpError {
  switch (error.code) {
    case 'agent_exists':
    case 'object_exists':
      return { status: 400, body: { error: 'already_exists', message: 'a node with this name already exists', ...nameOf(error) } };
    case 'agent_not_found':
    case 'scale_base_not_found':
      return { status: 404, body: { error: 'agent_not_found', message: 'agent not found', ...nameOf(error) } };
    case 'object_not_found':
    case 'target_not_found':
      return { status: 404, body: { error: 'object_not_found', message: 'object not found', ...nameOf(error) } };
    case 'agent_cap_exceeded':
      return {
        status: 400,
        body: { error: 'agent_cap_exceeded', message: 'the swarm agent cap would be exceeded', ...pick(error, ['count', 'limit']) },
      };
    case 'forbidden_config_keys':
      return {
        status: opts.objectPatch === true ? 422 : 400,
        body: {
          error: 'forbidden_config_keys',
          message: 'host-escape keys are not accepted from a dynamic mutation',
          ...pick(error, ['keys']),
        },
      };
    case 'unknown_edge_endpoint':
      return {
        status: 400,
        body: { error: 'unknown_edge_endpoint', message: 'an edge names an unknown node', ...pick(error, ['endpoint']) },
      };
    case 'invalid_count':
      return { status: 400, body: { error: 'invalid_count', message: 'count must be an integer >= 0' } };
    case 'invalid_name':
      return { status: 400, body: { error: 'invalid_name', message: 'names must match ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$' } };
    default:
      return { status: 400, body: { error: 'ir_validation_failed', message: 'the change is not valid for this swarm', issues: [error] } };
  }
}
