import { readdirSync, readFileSync } from 'node:fs';
import { AGENT_ID_MAX } from './agent-identity';

/**
 * The ids a root server gives its agents, one uid:gid pair each (docs/security.md "One identity per agent").
 * `first` is never an agent: it is the group every agent holds as its only supplementary group, the group of
 * the search-only (0710) directories on the way to each agent's own directories. Agents get `first + 1 ..
 * last`, uid = gid.
 */
export interface AgentIdRange {
  readonly first: number;
  readonly last: number;
}

/** `GENSWARMS_AGENT_UID_RANGE` when unset: 100,000 ids, above the usual login and system ids. */
export const DEFAULT_AGENT_ID_RANGE: AgentIdRange = { first: 200000, last: 299999 };
/** A range must hold the traversal group and at least one agent. */
export const AGENT_ID_RANGE_MIN_SIZE = 2;
/**
 * Ids above this do not fit a ustar header's 7 octal digits (2097151): tar archives (the Docker archive API)
 * would need a non-standard encoding, so a range stays below it.
 */
export const AGENT_ID_RANGE_MAX = 2097151;

export type AgentIdRangeParse = { kind: 'ok'; range: AgentIdRange } | { kind: 'invalid'; reason: string };

/** `A-B` (digits, A < B, 1 ≤ A, B ≤ 2097151). Never contains 0: agents do not run as root. */
export function parseAgentIdRange(raw: string): AgentIdRangeParse {
  const m = /^([0-9]{1,10})-([0-9]{1,10})$/.exec(raw.trim());
  if (m === null) return { kind: 'invalid', reason: 'expected FIRST-LAST, two integers (e.g. 200000-299999)' };
  const first = Number(m[1]);
  const last = Number(m[2]);
  if (first < 1) return { kind: 'invalid', reason: 'the range contains 0 (agents never run as root)' };
  if (last > AGENT_ID_RANGE_MAX || last > AGENT_ID_MAX)
    return { kind: 'invalid', reason: `ids above ${AGENT_ID_RANGE_MAX} are not supported` };
  if (last - first + 1 < AGENT_ID_RANGE_MIN_SIZE)
    return { kind: 'invalid', reason: "FIRST must be below LAST (FIRST is the agents' shared group, each agent takes one id above it)" };
  return { kind: 'ok', range: { first, last } };
}

/** The host's id databases, as text (tests hand their own). */
export interface HostIdDatabases {
  readonly passwd: string;
  readonly group: string;
  readonly subuid: string;
  readonly subgid: string;
}

/** Reads /etc/passwd, /etc/group, /etc/subuid, /etc/subgid; a missing file is empty. */
export function readHostIdDatabases(root = '/etc'): HostIdDatabases {
  const read = (name: string): string => {
    try {
      return readFileSync(`${root}/${name}`, 'utf8');
    } catch {
      return ''; // expected: a host without subordinate ids (or without a group file) has nothing there to overlap
    }
  };
  return { passwd: read('passwd'), group: read('group'), subuid: read('subuid'), subgid: read('subgid') };
}

/**
 * Why `range` may not be used on this host, or undefined: an account or group whose id lies in it (a real
 * user would share the agents' uid), or a subordinate id range that overlaps it (that user's rootless
 * containers would map onto agents' uids). Names, never other fields, appear in the reason.
 */
export function agentIdRangeConflict(range: AgentIdRange, db: HostIdDatabases): string | undefined {
  const inRange = (n: number): boolean => n >= range.first && n <= range.last;
  for (const [file, text] of [
    ['/etc/passwd', db.passwd],
    ['/etc/group', db.group],
  ] as const) {
    for (const line of text.split('\n')) {
      const fields = line.split(':');
      const id = Number(fields[2]);
      if (fields.length >= 3 && /^[0-9]+$/.test(fields[2] ?? '') && inRange(id))
        return `${file} has ${fields[0]} with id ${id} inside the range`;
    }
  }
  for (const [file, text] of [
    ['/etc/subuid', db.subuid],
    ['/etc/subgid', db.subgid],
  ] as const) {
    for (const line of text.split('\n')) {
      const [name, start, count] = line.split(':');
      if (!/^[0-9]+$/.test(start ?? '') || !/^[0-9]+$/.test(count ?? '')) continue;
      const lo = Number(start);
      const hi = lo + Number(count) - 1;
      if (lo <= range.last && hi >= range.first) return `${file} gives ${name} ids ${lo}-${hi}, which overlap the range`;
    }
  }
  return undefined;
}

/**
 * True when any process (any of its real, effective, saved or fs uids) runs as `uid`: an identity is handed to
 * a new agent only when nothing of the old one runs. A process that vanishes mid-scan is skipped.
 */
export function uidHasProcesses(uid: number, procRoot = '/proc'): boolean {
  for (const entry of readdirSync(procRoot)) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let status: string;
    try {
      status = readFileSync(`${procRoot}/${entry}/status`, 'utf8');
    } catch {
      continue; // expected: the process exited between the listing and the read
    }
    const ids = /^Uid:\s+(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
    if (ids.includes(uid)) return true;
  }
  return false;
}
