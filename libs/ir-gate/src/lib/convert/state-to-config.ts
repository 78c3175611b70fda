import type { AgentConfig } from '../config/agent-schema';
import { AGENT_FIELDS_IN_CONFIG } from '../config/agent-config-schema';
import type { BackendType } from '../config/backend-schema';
import { BACKEND_TYPES, DEFAULT_DOCKER_IMAGE } from '../config/backend-schema';
import type { ObjectConfig, SwarmConfig } from '../config/swarm-schema';
import { refScheme } from '../ref/ref';
import type { IrAgent, IrObject, ModelSlot, Ref, SwarmState } from '../state/types';
import { isRecord } from '../state/types';

type BackendOut = NonNullable<AgentConfig['backend']>;

function refToBackend(r: Ref): BackendOut {
  const opts = isRecord(r.opts) ? { ...r.opts } : undefined;
  const runner = opts?.['runner'];
  if (opts !== undefined) delete opts['runner'];
  const scheme = refScheme(r.ref);
  const type: BackendType =
    scheme === 'oci' ? 'docker' : (BACKEND_TYPES as readonly string[]).includes(r.ref) ? (r.ref as BackendType) : 'bwrap';
  const image = scheme === 'oci' ? r.ref.slice(4) : r.image;
  const out: Record<string, unknown> = { type };
  if (image !== undefined && !(type === 'docker' && image === DEFAULT_DOCKER_IMAGE)) out['image'] = image;
  if (typeof runner === 'string') out['runner'] = runner;
  if (type === 'ssh' && r.host !== undefined) out['host'] = r.host;
  if (opts !== undefined && Object.keys(opts).length > 0) out['opts'] = structuredClone(opts);
  return Object.keys(out).length === 1 ? type : (out as BackendOut);
}

function slotToModel(slot: ModelSlot): string | undefined {
  if ('policy' in slot) return undefined;
  if (slot.ref === 'model:default' || refScheme(slot.ref) !== 'model') return undefined;
  return slot.ref.slice('model:'.length);
}

function agentToConfig(a: IrAgent): AgentConfig {
  const out: Record<string, unknown> = { name: a.name, backend: refToBackend(a.backend) };
  const model = slotToModel(a.model);
  if (model !== undefined) out['model'] = model;
  const skills = isRecord(a.overrides) ? a.overrides['skills'] : undefined;
  if (Array.isArray(skills)) out['skills'] = [...(skills as string[])];
  const config: Record<string, unknown> = structuredClone(isRecord(a.config) ? a.config : {});
  for (const key of AGENT_FIELDS_IN_CONFIG) {
    // null: a field a run-time PATCH removed (`budget: null`); no agent field is ever null in a config
    if (Object.prototype.hasOwnProperty.call(config, key) && config[key] !== null) out[key] = config[key];
    delete config[key];
  }
  if (Object.keys(config).length > 0) out['config'] = config;
  return out as AgentConfig;
}

function objectToConfig(o: IrObject): ObjectConfig {
  const handler = refScheme(o.handler.ref) === 'handler' ? o.handler.ref.slice('handler:'.length) : o.handler.ref;
  return o.config === undefined ? { name: o.name, handler } : { name: o.name, handler, config: structuredClone(o.config) };
}

/** IR → config (the reverse of config→IR; `model:default` → no model). Used for snapshots. */
export function stateToConfig(state: SwarmState): SwarmConfig {
  const out: SwarmConfig = { name: state.name, agents: state.agents.map(agentToConfig) };
  if (state.objects.length > 0) out.objects = state.objects.map(objectToConfig);
  if (state.topology.length > 0) out.topology = state.topology.map(([f, t]) => [f, t] as [string, string]);
  const options = isRecord(state.options) ? withoutRemovedLimits(state.options) : {};
  if (Object.keys(options).length > 0) out.options = options;
  return out;
}

/** The options with the LLM limits a run-time PATCH removed (`budget: null`, `rate_limit: null`) left out. */
function withoutRemovedLimits(options: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(options);
  for (const key of ['budget', 'rate_limit']) if (out[key] === null) delete out[key];
  return out;
}
