import type { AgentConfig } from '../config/agent-schema';
import { AGENT_FIELDS_IN_CONFIG } from '../config/agent-config-schema';
import { expandAgentCounts } from '../config/agent-count';
import { DEFAULT_DOCKER_IMAGE, viewBackend } from '../config/backend-schema';
import type { ObjectConfig, SwarmConfig } from '../config/swarm-schema';
import { edgePair } from '../config/swarm-schema';
import type { IrAgent, IrObject, ModelSlot, Ref, SwarmState } from '../state/types';

/** docs/ir.md backend mapping. */
export function backendToRef(backend: AgentConfig['backend']): Ref {
  const b = viewBackend(backend);
  const opts = b.runner === undefined ? b.opts : { ...(b.opts ?? {}), runner: b.runner };
  const withOpts = (r: Ref): Ref => (opts === undefined ? r : { ...r, opts: structuredClone(opts) });
  if (b.type === 'docker') return withOpts({ ref: `oci:${b.image ?? DEFAULT_DOCKER_IMAGE}`, kind: 'data' });
  if (b.type === 'ssh') return withOpts({ ref: 'ssh', host: b.host ?? '' });
  return withOpts(b.image === undefined ? { ref: b.type } : { ref: b.type, image: b.image });
}

function modelToSlot(model: string | undefined): ModelSlot {
  return model === undefined ? { ref: 'model:default' } : { ref: `model:${model}`, attested: true };
}

function agentToIr(a: AgentConfig): IrAgent {
  const config: Record<string, unknown> = structuredClone(a.config ?? {});
  for (const key of AGENT_FIELDS_IN_CONFIG) {
    if (a[key] !== undefined) config[key] = structuredClone(a[key]);
  }
  return {
    name: a.name,
    body: { ref: `inline:${a.name}`, kind: 'data' },
    model: modelToSlot(a.model),
    backend: backendToRef(a.backend),
    overrides: a.skills === undefined ? {} : { skills: [...a.skills] },
    config,
  };
}

function objectToIr(o: ObjectConfig): IrObject {
  const ir: IrObject = { name: o.name, handler: { ref: `handler:${o.handler}`, kind: 'code' } };
  return o.config === undefined ? ir : { ...ir, config: structuredClone(o.config) };
}

/**
 * Config (already schema-valid) → IR `swarm.state`, phase `desired` (docs/ir.md). Counted entries are expanded
 * first, so the IR of `{ name: w, count: N }` is the IR of `w_1 … w_N` written out.
 */
export function configToState(compact: SwarmConfig): SwarmState {
  const config = expandAgentCounts(compact);
  return {
    v: 1,
    kind: 'swarm.state',
    name: config.name,
    phase: 'desired',
    agents: config.agents.map(agentToIr),
    objects: (config.objects ?? []).map(objectToIr),
    topology: (config.topology ?? []).map(edgePair),
    options: structuredClone(config.options ?? {}),
  };
}
