import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import * as path from 'node:path';

/** One entry of a tree as the host sees it: owner, mode, links and what it holds. */
export interface EntryFacts {
  readonly uid: number;
  readonly gid: number;
  readonly mode: number;
  readonly nlink: number;
  readonly holds: string;
}

/**
 * Owner, mode, link count and contents (a file's sha256, a link's target, a directory's entries) of `root`
 * and everything below it (`deep`; else the root alone), never following a link; a missing root is `{}`. Two
 * equal snapshots: nothing changed.
 */
export function snapshotTree(root: string, deep = true): Record<string, EntryFacts> {
  const out: Record<string, EntryFacts> = {};
  const visit = (p: string): void => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      // expected: an absent entry has no facts (the snapshot records only what exists)
      return;
    }
    let holds = '';
    if (st.isSymbolicLink()) holds = `-> ${readlinkSync(p)}`;
    else if (st.isFile()) holds = createHash('sha256').update(readFileSync(p)).digest('hex');
    else if (st.isDirectory()) holds = readdirSync(p).sort().join('/');
    out[p] = { uid: st.uid, gid: st.gid, mode: st.mode, nlink: st.nlink, holds };
    if (deep && st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(root);
  return out;
}
