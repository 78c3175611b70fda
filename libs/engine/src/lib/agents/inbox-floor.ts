/**
 * The highest inbox seq already used in an agent's workspace, so a new run never reuses one (the
 * genswarms-agent answers each seq once, in order, and skips any seq at or below its high-water mark).
 * Sources: the names of leftover `W/.inbox/<seq>_<from>.json` files and the agent's own mark in
 * `W/.genswarms/agent-state.json`. Both are agent-writable: names are matched, never followed; the
 * state file goes through the bounded no-follow reader and a strict schema.
 */
import { readUntrustedFile } from '@genswarms/receipts';
import { lstatSync, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

/** The agent's own file-name grammar: 4-15 digits (always below Number.MAX_SAFE_INTEGER). */
const INBOX_FILE_RE = /^([0-9]{4,15})_[A-Za-z0-9_-]{1,65}\.json$/;
/** Entries looked at, at most (a hostile workspace cannot make the scan unbounded). */
export const INBOX_SCAN_MAX = 100_000;
const STATE_MAX_BYTES = 64 * 1024;
const MAX_SEQ = 999_999_999_999_999;

const AgentState = z.strictObject({
  v: z.literal(1).describe('agent-state format version'),
  processedThrough: z.number().int().min(0).max(MAX_SEQ).describe('highest inbox seq the agent handled'),
});

async function maxInboxFileSeq(workspaceReal: string): Promise<number> {
  const dir = path.join(workspaceReal, '.inbox');
  // No .inbox (or none we may read) means no leftover seqs. One synchronous lstat: on a fresh
  // workspace (every agent of a new swarm) this is all the scan does, and a thread-pool round trip per agent
  // of a launch cost more than the call; the listing itself stays asynchronous (it can be long).
  let st: Stats | undefined;
  try {
    st = lstatSync(dir);
  } catch {
    // expected: no .inbox (or one we may not inspect) adds no seqs
    st = undefined;
  }
  if (st === undefined || !st.isDirectory()) return 0;
  let max = 0;
  let seen = 0;
  // expected: an .inbox that cannot be listed adds no seqs; the agent's own mark still counts
  const handle = await fsp.opendir(dir).catch(() => undefined);
  if (handle === undefined) return 0;
  for await (const entry of handle) {
    if (++seen > INBOX_SCAN_MAX) break;
    const m = INBOX_FILE_RE.exec(entry.name);
    if (m?.[1] !== undefined && entry.isFile()) max = Math.max(max, Number(m[1]));
  }
  return max;
}

async function agentMark(workspaceReal: string): Promise<number> {
  // expected: an unreadable or refused state file gives no mark (0)
  const read = await readUntrustedFile(path.join(workspaceReal, '.genswarms'), 'agent-state.json', STATE_MAX_BYTES).catch(() => undefined);
  if (read?.kind !== 'ok') return 0;
  try {
    const parsed = AgentState.safeParse(JSON.parse(read.data.toString('utf8')));
    return parsed.success ? parsed.data.processedThrough : 0;
  } catch {
    // expected: agent-writable text; unparsable means no mark
    return 0;
  }
}

/** max(leftover inbox file seqs, the agent's high-water mark); 0 for a fresh workspace. */
export async function inboxSeqFloor(workspaceReal: string): Promise<number> {
  return Math.max(await maxInboxFileSeq(workspaceReal), await agentMark(workspaceReal));
}
