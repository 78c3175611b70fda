import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { overlapsNormalized } from './path-rules';

/** One agent's directory the other agents' host paths may not overlap (its workspace or state dir). */
export interface ProtectedEntry {
  readonly path: string;
  /** The agent it belongs to: a check on that agent's behalf skips it. */
  readonly owner: string;
}

/** Answers whether a real path overlaps the protected directories, for one agent (its own left out). */
export interface ProtectedPathCheck {
  overlaps(real: string): boolean;
}

/** `{workspaces,state}/<swarm>/<agent>` below the home: a directory the host made itself (its real path is itself). */
export const AGENT_DIR_RE = /^(workspaces|state)\/[a-zA-Z][a-zA-Z0-9_-]{0,63}\/[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * The directories of a swarm's agents, indexed so one check costs the depth of the path, not the number of agents
 * (a list walked for each mount of each agent made a 10,000-agent launch quadratic: 44 % of the server's CPU at
 * 4,000). `<home>/{workspaces,state}/<swarm>/<agent>` written exactly so are their own real paths (the host makes
 * them with no-follow walks under its own parents) and go in the index; any other path (an operator-named
 * workspace) is resolved again at every check, as a swapped link must not hide it.
 */
export class ProtectedPathIndex {
  /** Indexed path → its owners, each with how many times it was added (a config and a session name one directory). */
  private readonly exact = new Map<string, Map<string, number>>();
  /** Strict ancestor of indexed paths → how many (path, owner) pairs lie below it. */
  private readonly below = new Map<string, number>();
  /** Owner → its indexed paths (to leave its own out of `below`). */
  private readonly byOwner = new Map<string, Set<string>>();
  /** Paths outside the index, resolved per check. */
  private readonly loose: ProtectedEntry[] = [];
  private readonly prefix: string;

  constructor(entries: Iterable<ProtectedEntry>, home: string) {
    const root = path.resolve(home);
    this.prefix = root === path.sep ? root : `${root}${path.sep}`;
    for (const e of entries) this.add(e);
  }

  /** Adds an entry (a session started): the cost of its depth. */
  add(e: ProtectedEntry): void {
    if (!path.isAbsolute(e.path)) return;
    if (!this.indexable(e.path)) return void this.loose.push(e);
    let owners = this.exact.get(e.path);
    if (owners === undefined) this.exact.set(e.path, (owners = new Map()));
    const times = owners.get(e.owner) ?? 0;
    owners.set(e.owner, times + 1);
    if (times > 0) return;
    const mine = this.byOwner.get(e.owner);
    if (mine === undefined) this.byOwner.set(e.owner, new Set([e.path]));
    else mine.add(e.path);
    this.countAncestors(e.path, 1);
  }

  /** Removes one earlier `add` of the same entry (a session ended); the others of that path and owner stay. */
  remove(e: ProtectedEntry): void {
    if (!path.isAbsolute(e.path)) return;
    if (!this.indexable(e.path)) {
      const i = this.loose.findIndex((l) => l.path === e.path && l.owner === e.owner);
      if (i >= 0) this.loose.splice(i, 1);
      return;
    }
    const owners = this.exact.get(e.path);
    const times = owners?.get(e.owner);
    if (owners === undefined || times === undefined) return;
    if (times > 1) return void owners.set(e.owner, times - 1);
    owners.delete(e.owner);
    if (owners.size === 0) this.exact.delete(e.path);
    this.byOwner.get(e.owner)?.delete(e.path);
    this.countAncestors(e.path, -1);
  }

  /** The check on behalf of `self` (its own directories left out); undefined: every entry counts. */
  checkFor(self: string | undefined): ProtectedPathCheck {
    return { overlaps: (real) => this.overlaps(real, self) };
  }

  /** `real` (absolute, normalized) equals, lies in or contains a directory of an agent other than `self`. */
  overlaps(real: string, self: string | undefined): boolean {
    for (let at = real; ; at = path.dirname(at)) {
      const owners = this.exact.get(at);
      if (owners !== undefined && (owners.size > 1 || self === undefined || !owners.has(self))) return true;
      if (at === path.sep) break;
    }
    const inside = this.below.get(real) ?? 0;
    if (inside > 0) {
      const prefix = real === path.sep ? real : `${real}${path.sep}`;
      let own = 0;
      for (const p of (self === undefined ? undefined : this.byOwner.get(self)) ?? []) if (p.startsWith(prefix)) own += 1;
      if (inside > own) return true;
    }
    return this.loose.some((e) => e.owner !== self && overlapsNormalized(real, realOrResolved(e.path)));
  }

  private indexable(p: string): boolean {
    return p.startsWith(this.prefix) && AGENT_DIR_RE.test(p.slice(this.prefix.length));
  }

  private countAncestors(p: string, by: 1 | -1): void {
    for (let up = path.dirname(p); ; up = path.dirname(up)) {
      const n = (this.below.get(up) ?? 0) + by;
      if (n === 0) this.below.delete(up);
      else this.below.set(up, n);
      if (up === path.sep) break;
    }
  }
}

/** The real path when it exists, else the lexical absolute path (a directory that will be created later). */
export function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // expected: an unresolvable path is checked as written
    return path.resolve(p);
  }
}
