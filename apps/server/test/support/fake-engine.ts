import type { ServerEngine } from '../../src/index';

/** A ServerEngine with only the given methods; any other call throws (so a test notices it). */
export function fakeEngine(partial: Partial<ServerEngine>): ServerEngine {
  return new Proxy(partial as ServerEngine, {
    get(target, prop: string) {
      const own = (target as unknown as Record<string, unknown>)[prop];
      if (own !== undefined) return own;
      if (prop === 'onPush') return () => () => undefined;
      if (prop === 'then') return undefined;
      return () => Promise.reject(new Error(`fake engine: ${prop} not provided`));
    },
  });
}
