/** The running swarms of one engine, by name: the one owner of that table (nothing else keeps a map). */
import { EngineError } from '../errors/engine-error';
import { assertName } from './helpers';
import type { SwarmRuntime } from './swarm-runtime';

export class RuntimeTable {
  private readonly bySwarm = new Map<string, SwarmRuntime>();

  get(swarm: string): SwarmRuntime | undefined {
    return this.bySwarm.get(swarm);
  }

  has(swarm: string): boolean {
    return this.bySwarm.has(swarm);
  }

  /** The running swarm, or 404 `swarm_not_found` (an off-grammar name cannot be running). */
  running(swarm: string): SwarmRuntime {
    assertName('swarm', swarm);
    const rt = this.bySwarm.get(swarm);
    if (rt === undefined) throw new EngineError('swarm_not_found', `Swarm ${swarm} is not running.`, {});
    return rt;
  }

  add(rt: SwarmRuntime): void {
    this.bySwarm.set(rt.swarm, rt);
  }

  delete(swarm: string): void {
    this.bySwarm.delete(swarm);
  }

  values(): IterableIterator<SwarmRuntime> {
    return this.bySwarm.values();
  }

  clear(): void {
    this.bySwarm.clear();
  }
}
