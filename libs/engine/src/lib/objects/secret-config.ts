/**
 * docs/messaging.md redaction of object configs: besides the key-name rule (`redactSecrets`), a key
 * the handler's `configSchema` marks `secret: true` is redacted whatever its name (e.g. `dsn`).
 */
import { isRecord as isRec } from '@genswarms/ir-gate';
import { REDACTED, redactSecrets } from '@genswarms/security';
import type { HandlerRegistry } from './handler';

type Rec = Record<string, unknown>;

/** The top-level keys `handler` declares secret (none for an unknown handler or no schema). */
export function secretKeysOf(handlers: HandlerRegistry, handler: string | undefined): ReadonlySet<string> {
  const schema = handler === undefined ? undefined : handlers.get(handler)?.configSchema;
  if (schema === undefined) return new Set();
  return new Set(Object.keys(schema).filter((k) => schema[k]?.secret === true));
}

/** `config` with the handler's secret keys replaced by the placeholder, then the key-name redaction. */
export function redactObjectConfig(handlers: HandlerRegistry, handler: string | undefined, config: unknown): unknown {
  const secret = secretKeysOf(handlers, handler);
  if (secret.size === 0 || !isRec(config)) return redactSecrets(config);
  const masked = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, secret.has(k) ? REDACTED : v]));
  return redactSecrets(masked);
}

/** A config (`objects: [{name, handler, config?}]`) with every object's secret keys masked, then redacted. */
export function redactSwarmConfig(handlers: HandlerRegistry, config: unknown): unknown {
  if (!isRec(config) || !Array.isArray(config['objects'])) return redactSecrets(config);
  const objects = config['objects'].map((o: unknown) => {
    if (!isRec(o) || !('config' in o)) return o;
    return { ...o, config: redactObjectConfig(handlers, typeof o['handler'] === 'string' ? o['handler'] : undefined, o['config']) };
  });
  return redactSecrets({ ...config, objects });
}

/** The handler name of an IR handler ref (`{ref: "handler:<name>"}`), or undefined. */
function handlerOfRef(ref: unknown): string | undefined {
  const r = isRec(ref) ? ref['ref'] : undefined;
  return typeof r === 'string' && r.startsWith('handler:') ? r.slice('handler:'.length) : undefined;
}

export interface OverlayView {
  readonly seq: number;
  readonly op: string;
  readonly payload: Rec;
  readonly timestamp: string;
}

/**
 * Overlay events with object configs masked: `add_object` by its own handler, `update_config` by the
 * handler its target has at that point (seed objects, then every earlier `add_object`).
 */
export function redactOverlay(
  handlers: HandlerRegistry,
  seedObjects: ReadonlyMap<string, string>,
  events: readonly OverlayView[],
): unknown[] {
  const handlerOf = new Map(seedObjects);
  return events.map((e) => {
    const p = e.payload;
    let payload: unknown = p;
    if (e.op === 'add_object' && typeof p['name'] === 'string') {
      const handler = handlerOfRef(p['handler']);
      if (handler !== undefined) handlerOf.set(p['name'], handler);
      if ('config' in p) payload = { ...p, config: redactObjectConfig(handlers, handler, p['config']) };
    } else if (e.op === 'remove_object' && typeof p['name'] === 'string') {
      handlerOf.delete(p['name']);
    } else if (e.op === 'update_config' && typeof p['target'] === 'string' && 'config' in p) {
      payload = { ...p, config: redactObjectConfig(handlers, handlerOf.get(p['target']), p['config']) };
    }
    return redactSecrets({ seq: e.seq, op: e.op, payload, timestamp: e.timestamp });
  });
}

/** Whether some registered handler declares `key` secret (the store keeps every such config value out of the database). */
export function isAnyHandlerSecretKey(handlers: HandlerRegistry, key: string): boolean {
  return handlers.names().some((name) => secretKeysOf(handlers, name).has(key));
}
