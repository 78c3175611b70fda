import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** Most bytes of a clone record read back. */
const GIT_RECORD_MAX_BYTES = 8192;

/** What the host remembers of an agent's clone (`<home>/git/<swarm>/<agent>.json`, the server's, 0600). */
export interface GitRecord {
  readonly version: 1;
  /** Real path of the operator's repository. */
  readonly repo: string;
  /** The ref as the operator wrote it. */
  readonly ref: string;
  /** The commit the clone started from. */
  readonly base: string;
  readonly branch: string;
}

export type GitRecordRead = { kind: 'ok'; record: GitRecord } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

/** Writes the record atomically (temporary file, then rename). */
export async function writeGitRecord(file: string, record: GitRecord): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fsp.rm(tmp, { force: true });
  await fsp.writeFile(tmp, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
  await fsp.rename(tmp, file);
}

/** Reads a record back; only `missing` means "no git workspace". */
export async function readGitRecord(file: string): Promise<GitRecordRead> {
  let text: string;
  try {
    const h = await fsp.open(file, 'r');
    try {
      const buf = Buffer.alloc(GIT_RECORD_MAX_BYTES);
      const { bytesRead } = await h.read(buf, 0, buf.length, 0);
      text = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await h.close();
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', reason: 'unreadable' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // expected: unparsable text is the typed answer `invalid`
    return { kind: 'invalid', reason: 'not JSON' };
  }
  return parseGitRecord(raw);
}

function parseGitRecord(raw: unknown): GitRecordRead {
  if (typeof raw !== 'object' || raw === null) return { kind: 'invalid', reason: 'not an object' };
  const r = raw as Record<string, unknown>;
  const str = (k: string): string | undefined => (typeof r[k] === 'string' ? (r[k] as string) : undefined);
  const [repo, ref, base, branch] = [str('repo'), str('ref'), str('base'), str('branch')];
  if (r['version'] !== 1 || repo === undefined || ref === undefined || base === undefined || branch === undefined)
    return { kind: 'invalid', reason: 'missing fields' };
  if (!/^[0-9a-f]{40}$/.test(base) || !path.isAbsolute(repo)) return { kind: 'invalid', reason: 'bad base or repo' };
  return { kind: 'ok', record: { version: 1, repo, ref, base, branch } };
}
