import { constants, promises as fsp } from 'node:fs';

/** Outcome of preparing GENSWARMS_HOME; `reason` never holds anything secret. */
export type HomeCheck = { kind: 'ok'; path: string } | { kind: 'unsafe'; reason: string };

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

async function createIfMissing(path: string): Promise<HomeCheck | undefined> {
  try {
    await fsp.lstat(path);
    return undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { kind: 'unsafe', reason: 'cannot be inspected' };
  }
  try {
    await fsp.mkdir(path, { recursive: true, mode: 0o700 });
    return undefined;
  } catch {
    // expected: the typed refusal, without the errno detail
    return { kind: 'unsafe', reason: 'cannot be created' };
  }
}

/**
 * README.md (Configuration): creates GENSWARMS_HOME (0700) when missing; refuses a symlink, a non-directory, another
 * owner, or a group/world-writable directory; then tightens it to 0700 through the descriptor. With
 * `traverseGid` (a root server's agent gid) a home that is exactly 0710 with that group keeps it: the
 * runners gave the agent group search-by-name down to its own directories (docs/security.md#10-agent-runners-and-sandboxes).
 */
export async function ensureServerHome(path: string, uid: number, traverseGid?: number): Promise<HomeCheck> {
  const created = await createIfMissing(path);
  if (created !== undefined) return created;
  const st = await fsp.lstat(path);
  if (st.isSymbolicLink()) return { kind: 'unsafe', reason: 'is a symlink' };
  if (!st.isDirectory()) return { kind: 'unsafe', reason: 'is not a directory' };
  // expected: a home that cannot be opened is refused below
  const fh = await fsp.open(path, DIR_FLAGS).catch(() => undefined);
  if (fh === undefined) return { kind: 'unsafe', reason: 'cannot be opened' };
  try {
    const fst = await fh.stat();
    if (fst.ino !== st.ino || fst.dev !== st.dev) return { kind: 'unsafe', reason: 'changed while being checked' };
    if (fst.uid !== uid) return { kind: 'unsafe', reason: 'is not owned by the server user' };
    if ((fst.mode & 0o022) !== 0) return { kind: 'unsafe', reason: 'is group- or world-writable' };
    const traversable = traverseGid !== undefined && fst.gid === traverseGid && (fst.mode & 0o7777) === 0o710;
    await fh.chmod(traversable ? 0o710 : 0o700);
    return { kind: 'ok', path: await fsp.realpath(path) };
  } finally {
    // best-effort: close of a read-only directory descriptor; nothing depends on its result.
    await fh.close().catch(() => undefined);
  }
}
