/** Objects at runtime, the overlay and the snapshot (docs/rest-api.md). */
import { foldAgentCounts, gateStart, ObjectSchema, type IrObject } from '@genswarms/ir-gate';
import { stringify as toYaml } from 'yaml';
import { EngineError } from '../errors/engine-error';
import { NAME_RE } from '@genswarms/ir-gate';
import type { AddObjectCommand, ObjectConfigPatchCommand } from '../commands/command-schemas';
import type { SnapshotFormat } from '../commands/parse-command';
import { checkConfigPatch } from '../objects/config-patch';
import type { ObjectInstance } from '../objects/object-instance';
import { applyRuntimeOps } from './apply-ops';
import type { Ports } from './engine-context';
import { assertKnownSwarm } from './lifecycle';
import { toOverlayEvents } from './helpers';
import { startObject } from './launch';
import { redactObjectConfig, redactOverlay, redactSwarmConfig } from '../objects/secret-config';
import type { ObjectStatus } from './status';
import { storedObject, swarmView } from './stored-view';
import { edgeOps } from './node-ops';
import type { SwarmRuntime } from './swarm-runtime';

function objectOf(rt: SwarmRuntime, name: string): ObjectInstance {
  const o = NAME_RE.test(name) ? rt.object(name) : undefined;
  if (o === undefined) throw new EngineError('object_not_found', `No object named ${name}.`);
  return o;
}

export async function listObjects(ctx: Ports<'runtimes' | 'store'>, swarm: string): Promise<{ objects: ObjectStatus[] }> {
  const view = await swarmView(ctx, swarm);
  if (view.kind === 'stored') return { objects: view.stored.objects.map((o) => ({ name: o.name, handler: o.handler, state: 'stopped' })) };
  return { objects: view.rt.objectList().map((o) => ({ name: o.name, handler: o.handlerName, state: o.lifecycle })) };
}

/** `{object: {name, handler, config}, state}`; the config redacted by key name and by the handler's `secret` keys. */
export async function getObject(
  ctx: Ports<'handlers' | 'runtimes' | 'store'>,
  swarm: string,
  name: string,
): Promise<{ object: { name: string; handler: string; config: unknown }; state: string }> {
  const view = await swarmView(ctx, swarm);
  if (view.kind === 'stored') {
    const o = storedObject(view.stored, name);
    return {
      object: { name: o.name, handler: o.handler, config: redactObjectConfig(ctx.handlers, o.handler, o.config ?? {}) },
      state: 'stopped',
    };
  }
  const o = objectOf(view.rt, name);
  return {
    object: { name: o.name, handler: o.handlerName, config: redactObjectConfig(ctx.handlers, o.handlerName, o.config) },
    state: o.lifecycle,
  };
}

/** The command was parsed at the edge (name); the handler and the object fields are checked here (gate). */
export async function addObject(
  ctx: Ports<'clock' | 'events' | 'handlers' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  cmd: AddObjectCommand,
): Promise<{ status: 'added'; name: string }> {
  const rt = ctx.runtimes.running(swarm);
  const { connections, incoming, ...raw } = cmd;
  if (typeof raw['handler'] !== 'string' || !ctx.handlers.has(raw['handler']))
    throw new EngineError('invalid_handler', 'The handler is not registered with this engine.');
  const parsed = ObjectSchema.safeParse(raw);
  if (!parsed.success)
    throw new EngineError('validation_failed', 'The object does not match the schema.', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    });
  const o = parsed.data;
  const names = (v: readonly unknown[] | undefined): string[] => (v ?? []).filter((n): n is string => typeof n === 'string');
  const payload: IrObject = {
    name: o.name,
    handler: { ref: `handler:${o.handler}`, kind: 'code' },
    ...(o.config === undefined ? {} : { config: o.config }),
  };
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'add_object', payload }, ...edgeOps(o.name, names(connections), names(incoming))]);
  await applied.commit();
  await startObject(rt, ctx.handlers, o, { restore: false });
  await ctx.events.emit({
    type: 'object_added',
    swarm,
    agent: o.name,
    message: `Object ${o.name} added.`,
    metadata: { handler: o.handler },
  });
  return { status: 'added', name: o.name };
}

export async function removeObject(
  ctx: Ports<'clock' | 'events' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  name: string,
): Promise<{ status: 'removed'; name: string }> {
  const rt = ctx.runtimes.running(swarm);
  const o = objectOf(rt, name);
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'remove_object', payload: { name } }]);
  await applied.commit();
  o.stop();
  rt.removeObject(name);
  await ctx.store.deleteObjectState(swarm, name);
  await ctx.events.emit({ type: 'object_removed', swarm, agent: name, message: `Object ${name} removed.` });
  return { status: 'removed', name };
}

/** PATCH of an object: checks (1)-(5) in order, then restart with {...old, ...patch}; a failing init restores the old config. */
export async function patchObjectConfig(
  ctx: Ports<'clock' | 'events' | 'limits' | 'pushes' | 'runtimes' | 'store'>,
  swarm: string,
  name: string,
  cmd: ObjectConfigPatchCommand,
): Promise<{ status: 'updated'; object: string; keys: string[] }> {
  const rt = ctx.runtimes.running(swarm);
  const o = objectOf(rt, name);
  const patch = checkConfigPatch(o.handler, cmd.config);
  const applied = await applyRuntimeOps(ctx, rt, [{ op: 'update_config', payload: { target: name, config: patch } }], {
    objectPatch: true,
  });
  const r = await o.reconfigure({ ...o.config, ...patch });
  if (!r.ok) {
    await ctx.events.emit({
      type: 'object_error',
      swarm,
      agent: name,
      message: `Object ${name} rejected the new config; old config kept.`,
      metadata: { error: r.error },
    });
    throw new EngineError('object_init_failed', 'The object could not start with this config; the old config is kept.', { object: name });
  }
  await applied.commit();
  const keys = Object.keys(patch).sort();
  await ctx.events.emit({
    type: 'object_config_updated',
    swarm,
    agent: name,
    message: `Object ${name} config updated.`,
    metadata: { keys },
  });
  return { status: 'updated', object: name, keys };
}

export async function getOverlay(
  ctx: Ports<'handlers' | 'runtimes' | 'store'>,
  swarm: string,
): Promise<{ swarm: string; events: unknown[] }> {
  if (!NAME_RE.test(swarm)) return { swarm, events: [] };
  const rows = await ctx.store.listOverlay(swarm);
  const seed = ctx.runtimes.get(swarm)?.seedConfig ?? (await ctx.store.getSwarm(swarm))?.config;
  return { swarm, events: redactOverlay(ctx.handlers, seedObjectHandlers(seed), rows) };
}

/** Object name → handler name of a stored seed config (empty when it has none). */
function seedObjectHandlers(seed: unknown): Map<string, string> {
  const objects = typeof seed === 'object' && seed !== null ? (seed as { objects?: unknown }).objects : undefined;
  const out = new Map<string, string>();
  if (!Array.isArray(objects)) return out;
  for (const o of objects as unknown[]) {
    const { name, handler } = (typeof o === 'object' && o !== null ? o : {}) as { name?: unknown; handler?: unknown };
    if (typeof name === 'string' && typeof handler === 'string') out.set(name, handler);
  }
  return out;
}

export async function clearOverlay(ctx: Ports<'events' | 'store'>, swarm: string): Promise<{ status: 'cleared'; swarm: string }> {
  if (NAME_RE.test(swarm)) {
    const n = await ctx.store.clearOverlay(swarm);
    await ctx.events.emit({ type: 'overlay_cleared', swarm, agent: null, message: `Overlay of ${swarm} cleared.`, metadata: { count: n } });
  }
  return { status: 'cleared', swarm };
}

export interface Snapshot {
  readonly contentType: string;
  readonly body: string;
  readonly document: unknown;
}

/** The effective config (seed ⊕ overlay), redacted, as JSON (default) or YAML. */
export async function snapshot(
  ctx: Ports<'handlers' | 'runtimes' | 'store'>,
  swarm: string,
  format: SnapshotFormat = 'json',
): Promise<Snapshot> {
  const rt = ctx.runtimes.get(swarm);
  let effective: unknown = rt?.effective;
  if (effective === undefined) {
    await assertKnownSwarm(ctx, swarm);
    const row = await ctx.store.getSwarm(swarm);
    const gate = gateStart(row?.config, { overlayEvents: toOverlayEvents(await ctx.store.listOverlay(swarm)) });
    effective = gate.kind === 'ok' ? gate.effective : row?.config;
  }
  const document = redactSwarmConfig(ctx.handlers, foldAgentCounts(effective)); // 10,000 instances written out are over the body limit
  return format === 'yaml'
    ? { contentType: 'application/yaml; charset=utf-8', body: toYaml(document), document }
    : { contentType: 'application/json', body: JSON.stringify(document), document };
}
