import type { SwarmService } from '@genswarms/engine';

/** A SwarmService with only the given methods; any other call throws (so a test notices it). */
export function fakeEngine(partial: Partial<SwarmService>): SwarmService {
  return new Proxy(partial as SwarmService, {
    get(target, prop: string) {
      const own = (target as unknown as Record<string, unknown>)[prop];
      if (own !== undefined) return own;
      if (prop === 'onPush' || prop === 'onLlmCall') return () => () => undefined;
      if (prop === 'then') return undefined;
      return () => Promise.reject(new Error(`fake engine: ${prop} not provided`));
    },
  });
}

/** A deliberately off-type (e.g. unredacted) result, for edge tests that check what the edge does with it. */
export function offShape<T>(value: unknown): T {
  return value as T;
}
