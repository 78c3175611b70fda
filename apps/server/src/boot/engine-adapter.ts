import type { Engine } from '@genswarms/engine';
import { EngineError } from '@genswarms/engine';
import type { EventFilterSet, Json, ServerEngine } from '../engine-port';

async function isKnown(engine: Engine, swarm: string): Promise<boolean> {
  try {
    await engine.assertKnownSwarm(swarm);
    return true;
  } catch (err) {
    if (err instanceof EngineError && err.code === 'swarm_not_found') return false;
    throw err;
  }
}

/** The newest `limit` events of a swarm matching any filter set, oldest first, each once. */
async function recentEvents(engine: Engine, swarm: string, filters: readonly EventFilterSet[], limit: number): Promise<Json[]> {
  const seen = new Map<number, Json>();
  for (const set of filters) {
    const { events } = await engine.queryEvents({ ...set, limit: String(limit) }, { swarm });
    for (const e of events) seen.set(e.id, e as unknown as Json);
  }
  return [...seen.entries()]
    .sort(([a], [b]) => a - b)
    .slice(-limit)
    .map(([, e]) => e);
}

const json = async (p: unknown): Promise<Json> => (await p) as Json;

/** `ServerEngine` over a `@genswarms/engine` Engine: the one place that knows the engine's method names. */
export function adaptEngine(engine: Engine): ServerEngine {
  return {
    listSwarms: async () => (await engine.listSwarms()).swarms,
    hasSwarm: (name) => isKnown(engine, name),
    startSwarm: (input) => json(engine.startSwarm(input)),
    getSwarm: (swarm) => json(engine.getSwarm(swarm)),
    stopSwarm: (swarm, opts) => json(engine.stopSwarm(swarm, opts)),
    restartSwarm: (swarm, opts) => json(engine.restartSwarm(swarm, opts)),
    pauseSwarm: (swarm) => json(engine.pauseSwarm(swarm)),
    resumeSwarm: (swarm) => json(engine.resumeSwarm(swarm)),
    sendMessage: (swarm, msg) => json(engine.sendMessage(swarm, msg)),
    listMessages: (swarm, limit) => json(engine.listMessages(swarm, limit)),
    listAgents: (swarm) => json(engine.listAgents(swarm)),
    addAgent: (swarm, body) => json(engine.addAgent(swarm, body)),
    getAgent: (swarm, agent) => json(engine.getAgent(swarm, agent)),
    removeAgent: (swarm, agent) => json(engine.removeAgent(swarm, agent)),
    sendTask: (swarm, agent, task) => json(engine.sendTask(swarm, agent, task)),
    restartAgent: (swarm, agent) => json(engine.restartAgent(swarm, agent)),
    resumeAgent: (swarm, agent) => json(engine.resumeAgent(swarm, agent)),
    listTurns: (swarm, agent, limit) => json(engine.listTurns(swarm, agent, limit)),
    agentHistory: (swarm, agent, limit) => json(engine.agentHistory(swarm, agent, limit)),
    agentLogs: (swarm, agent) => json(engine.agentLogs(swarm, agent)),
    scaleAgent: (swarm, base, count) => json(engine.scaleAgents(swarm, base, count)),
    getTopology: (swarm) => json(engine.getTopology(swarm)),
    patchTopology: (swarm, patch) => json(engine.patchTopology(swarm, { add: patch.add.map((e) => [...e]), remove: patch.remove.map((e) => [...e]) })),
    listObjects: (swarm) => json(engine.listObjects(swarm)),
    addObject: (swarm, body) => json(engine.addObject(swarm, body)),
    getObject: (swarm, object) => json(engine.getObject(swarm, object)),
    removeObject: (swarm, object) => json(engine.removeObject(swarm, object)),
    patchObjectConfig: (swarm, object, config) => json(engine.patchObjectConfig(swarm, object, { config })),
    getOverlay: (swarm) => json(engine.getOverlay(swarm)),
    clearOverlay: (swarm) => json(engine.clearOverlay(swarm)),
    snapshot: async (swarm) => (await engine.snapshot(swarm, 'json')).document as Json,
    listSkills: () => json(engine.listSkills()),
    readSkill: (name) => json(engine.readSkill(name)),
    queryEvents: (raw, scope) => json(engine.queryEvents(raw, scope)),
    recentEvents: (swarm, filters, limit) => recentEvents(engine, swarm, filters, limit),
    onPush: (listener) => engine.onPush(listener),
  };
}
