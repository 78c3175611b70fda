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

const AGENT_DIR_RE = /^(workspaces|state)\/[a-zA-Z][a-zA-Z0-9_-]{0,63}\/[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/**
 * The directories of a swarm's agents, indexed so one check costs the depth of the path, not the number of agents
 * (a list walked for each mount of each agent made a 10,000-agent launch quadratic: 44 % of the server's CPU at
 * 4,000). `<home>/{workspaces,state}/<swarm>/<agent>` written exactly so are their own real paths (the host makes
 * them with no-follow walks under its own parents) and go in the index; any other path (an operator-named
 * workspace) is resolved again at every check, as a swapped link must not hide it.
 */
export class ProtectedPathIndex {
  /** Indexed path → its owners. */
  private readonly exact = new Map<string, Set<string>>();
  /** Strict ancestor of indexed paths → how many indexed entries lie below it. */
  private readonly below = new Map<string, number>();
  /** Owner → its indexed paths (to leave its own out of `below`). */
  private readonly byOwner = new Map<string, string[]>();
  /** Paths outside the index, resolved per check. */
  private readonly loose: ProtectedEntry[] = [];

  constructor(entries: Iterable<ProtectedEntry>, home: string) {
    const root = path.resolve(home);
    const prefix = root === path.sep ? root : `${root}${path.sep}`;
    for (const e of entries) {
      if (!path.isAbsolute(e.path)) continue;
      if (!e.path.startsWith(prefix) || !AGENT_DIR_RE.test(e.path.slice(prefix.length))) {
        this.loose.push(e);
        continue;
      }
      let owners = this.exact.get(e.path);
      if (owners === undefined) this.exact.set(e.path, (owners = new Set()));
      if (owners.has(e.owner)) continue; // the same directory named twice (config and session)
      owners.add(e.owner);
      const mine = this.byOwner.get(e.owner);
      if (mine === undefined) this.byOwner.set(e.owner, [e.path]);
      else mine.push(e.path);
      for (let up = path.dirname(e.path); ; up = path.dirname(up)) {
        this.below.set(up, (this.below.get(up) ?? 0) + 1);
        if (up === path.sep) break;
      }
    }
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
      const own = self === undefined ? 0 : (this.byOwner.get(self) ?? []).filter((p) => p.startsWith(prefix)).length;
      if (inside > own) return true;
    }
    return this.loose.some((e) => e.owner !== self && overlapsNormalized(real, realOrResolved(e.path)));
  }
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // expected: an unresolvable path is checked as written
    return path.resolve(p);
  }
}
