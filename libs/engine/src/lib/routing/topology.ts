/** docs/messaging.md: directed adjacency and the gating rule. */
import type { TopologyEntry } from '../events/pushes';

export const SYSTEM_OBJECT_NAMES: readonly string[] = ['metrics', 'tick', 'gateway'];

export type NodeKind = 'agent' | 'object';

export class Topology {
  private readonly adjacency = new Map<string, string[]>();

  constructor(edges: readonly (readonly [string, string])[] = []) {
    for (const [from, to] of edges) this.add(from, to);
  }

  /** Adding an existing edge is a no-op; returns true when added. */
  add(from: string, to: string): boolean {
    const targets = this.adjacency.get(from) ?? [];
    if (targets.includes(to)) return false;
    targets.push(to);
    this.adjacency.set(from, targets);
    return true;
  }

  /** Removing an absent edge is a no-op; returns true when removed. */
  remove(from: string, to: string): boolean {
    const targets = this.adjacency.get(from);
    const i = targets?.indexOf(to) ?? -1;
    if (targets === undefined || i < 0) return false;
    targets.splice(i, 1);
    if (targets.length === 0) this.adjacency.delete(from);
    return true;
  }

  removeNode(name: string): void {
    this.adjacency.delete(name);
    for (const [from, targets] of [...this.adjacency]) {
      const kept = targets.filter((t) => t !== name);
      if (kept.length === 0) this.adjacency.delete(from);
      else this.adjacency.set(from, kept);
    }
  }

  hasEdge(from: string, to: string): boolean {
    return this.adjacency.get(from)?.includes(to) ?? false;
  }

  targets(from: string): readonly string[] {
    return [...(this.adjacency.get(from) ?? [])];
  }

  /** `from → to` is allowed iff there is an edge, or `to` is an OBJECT named metrics/tick/gateway. */
  isAllowed(from: string, to: string, kindOf: (name: string) => NodeKind | undefined): boolean {
    return this.hasEdge(from, to) || isSystemObject(to, kindOf);
  }

  edges(): [string, string][] {
    return [...this.adjacency].flatMap(([from, targets]) => targets.map((t): [string, string] => [from, t]));
  }

  entries(): TopologyEntry[] {
    return [...this.adjacency].map(([from, targets]) => ({ from, targets: [...targets] }));
  }
}

export function isSystemObject(name: string, kindOf: (name: string) => NodeKind | undefined): boolean {
  return SYSTEM_OBJECT_NAMES.includes(name) && kindOf(name) === 'object';
}
