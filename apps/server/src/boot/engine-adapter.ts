import * as engineLib from '@genswarms/engine';
import { EngineError } from '@genswarms/engine';
import type { EnginePushMessage, EventFilterSet, Json, ServerEngine, StartInput } from '../engine-port';

/**
 * The slice of an `Engine` instance the adapter calls directly (CONTRACT §15 swarm-level operations).
 * Declared structurally so the server depends on behaviour, not on the engine's internals.
 */
export interface EngineInstance {
  startSwarm(input: StartInput): Promise<unknown>;
  listSwarms(): Promise<{ swarms: readonly unknown[] }>;
  getSwarm(swarm: string): Promise<unknown>;
  stopSwarm(swarm: string, opts: { purge?: boolean }): Promise<unknown>;
  restartSwarm(swarm: string, opts: { deleteData?: boolean }): Promise<unknown>;
  listMessages(swarm: string, limit?: unknown): Promise<unknown>;
  assertKnownSwarm(swarm: string): Promise<void>;
  queryEvents(raw: Json, scope: { swarm?: string; agent?: string }): Promise<{ events: readonly unknown[]; count: number; query: unknown }>;
  onPush(listener: (swarm: string, push: EnginePushMessage) => void): () => void;
}

type OpFn = (engine: EngineInstance, ...args: unknown[]) => unknown;

/** Engine operations exported as functions `(engine, swarm, …)`; looked up by name from the barrel. */
function op(name: string): OpFn {
  const fn = (engineLib as unknown as Record<string, unknown>)[name];
  if (typeof fn === 'function') return fn as OpFn;
  return () => {
    throw new EngineError('internal_error', `This engine does not provide ${name}.`);
  };
}

async function call(name: string, engine: EngineInstance, ...args: unknown[]): Promise<Json> {
  return (await op(name)(engine, ...args)) as Json;
}

async function isKnown(engine: EngineInstance, swarm: string): Promise<boolean> {
  try {
    await engine.assertKnownSwarm(swarm);
    return true;
  } catch (err) {
    if (err instanceof EngineError && err.code === 'swarm_not_found') return false;
    throw err;
  }
}

async function recentEvents(engine: EngineInstance, swarm: string, filters: readonly EventFilterSet[], limit: number): Promise<Json[]> {
  const seen = new Map<number, Json>();
  for (const set of filters) {
    const { events } = await engine.queryEvents({ ...set, limit: String(limit) }, { swarm });
    for (const e of events as Json[]) seen.set(Number(e['id']), e);
  }
  return [...seen.entries()]
    .sort(([a], [b]) => a - b)
    .slice(-limit)
    .map(([, e]) => e);
}

/** `ServerEngine` over a `@genswarms/engine` Engine instance. */
export function adaptEngine(engine: EngineInstance): ServerEngine {
  return {
    listSwarms: async () => (await engine.listSwarms()).swarms,
    hasSwarm: (name) => isKnown(engine, name),
    startSwarm: async (input) => (await engine.startSwarm(input)) as Json,
    getSwarm: async (swarm) => (await engine.getSwarm(swarm)) as Json,
    stopSwarm: async (swarm, opts) => (await engine.stopSwarm(swarm, opts)) as Json,
    restartSwarm: async (swarm, opts) => (await engine.restartSwarm(swarm, opts)) as Json,
    pauseSwarm: (swarm) => call('pauseSwarm', engine, swarm),
    resumeSwarm: (swarm) => call('resumeSwarm', engine, swarm),
    sendMessage: (swarm, msg) => call('sendMessage', engine, swarm, msg),
    listMessages: async (swarm, limit) => (await engine.listMessages(swarm, limit)) as Json,
    listAgents: (swarm) => call('listAgents', engine, swarm),
    addAgent: (swarm, body) => call('addAgent', engine, swarm, body),
    getAgent: (swarm, agent) => call('getAgent', engine, swarm, agent),
    removeAgent: (swarm, agent) => call('removeAgent', engine, swarm, agent),
    sendTask: (swarm, agent, task) => call('sendTask', engine, swarm, agent, task),
    restartAgent: (swarm, agent) => call('restartAgent', engine, swarm, agent),
    resumeAgent: (swarm, agent) => call('resumeAgent', engine, swarm, agent),
    listTurns: (swarm, agent, limit) => call('listTurns', engine, swarm, agent, limit),
    agentHistory: (swarm, agent, limit) => call('agentHistory', engine, swarm, agent, limit),
    agentLogs: (swarm, agent) => call('agentLogs', engine, swarm, agent),
    scaleAgent: (swarm, base, count) => call('scaleAgents', engine, swarm, base, count),
    getTopology: (swarm) => call('getTopology', engine, swarm),
    patchTopology: (swarm, patch) => call('patchTopology', engine, swarm, { add: patch.add.map((e) => [...e]), remove: patch.remove.map((e) => [...e]) }),
    listObjects: (swarm) => call('listObjects', engine, swarm),
    addObject: (swarm, body) => call('addObject', engine, swarm, body),
    getObject: (swarm, object) => call('getObject', engine, swarm, object),
    removeObject: (swarm, object) => call('removeObject', engine, swarm, object),
    patchObjectConfig: (swarm, object, config) => call('patchObjectConfig', engine, swarm, object, { config }),
    getOverlay: (swarm) => call('getOverlay', engine, swarm),
    clearOverlay: (swarm) => call('clearOverlay', engine, swarm),
    snapshot: async (swarm) => (await call('snapshot', engine, swarm, 'json'))['document'] as Json,
    queryEvents: async (raw, scope) => (await engine.queryEvents(raw, scope)) as unknown as Json,
    recentEvents: (swarm, filters, limit) => recentEvents(engine, swarm, filters, limit),
    onPush: (listener) => engine.onPush(listener),
  };
}
