import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';
import { storeBlob } from './loose-object';
import { HOST_GIT_LONG_TIMEOUT_MS, runHostGit } from './host-git';
import { listDir, openDirIn, openRegularIn, readFileIn, readLinkIn, type TreeEntry } from './untrusted-tree';

/** Most files of a working tree taken into a snapshot. */
export const SNAPSHOT_FILES_MAX = 20_000;
/** Largest file read into memory (bytes); a larger one is streamed into `git hash-object` in the mirror. */
export const SNAPSHOT_FILE_MAX_BYTES = 8 * 1024 * 1024;
/**
 * Most bytes of files taken into one snapshot. A file past it is not read: the branch head's version of that
 * path is kept (so it never reads as deleted, and `--include-uncommitted` never commits a false deletion) and
 * the snapshot says `truncated`.
 */
export const SNAPSHOT_TOTAL_MAX_BYTES = 1024 * 1024 * 1024;
/** Deepest directory walked. */
const SNAPSHOT_DEPTH_MAX = 64;
/** Entries at the top of a workspace that are genswarms' own, never part of the agent's work. */
const TOP_SKIPPED = new Set(['.git', '.genswarms', '.inbox', '.outbox']);

export interface SnapshotInput {
  readonly workspace: FileHandle;
  /**
   * The uid whose files are taken: the workspace's owner. A file of anyone else (a hard link to a file the agent
   * cannot read, where the kernel allows making one) is left out, never read as root.
   */
  readonly owner: number;
  readonly mirror: string;
  /** The agent's branch head: its entries stand in for files past the byte budget. */
  readonly head: string;
  /** Blob ids of files seen before, by path and stamp (`SnapshotCache`); a file whose stamp matches is not read again. */
  readonly cache?: SnapshotCache;
  /** A host-owned index file, rewritten by each snapshot. */
  readonly indexFile: string;
  readonly emptyHome: string;
}

export interface Snapshot {
  readonly tree: string;
  /** Files left out: links to nowhere, FIFOs, devices, oversize, over the count or byte limit. */
  readonly skipped: number;
  readonly truncated: boolean;
}

/**
 * What a previous snapshot of the same tree read: path (latin1) → the file's stamp, mode and blob id. An entry is
 * kept only when the file's ctime was over RACY_WINDOW_MS before that snapshot began: a file changed within the
 * same timestamp tick as it was read would keep its stamp (the "racy git" case) and is read again instead.
 */
export type SnapshotCache = Map<string, { readonly stamp: string; readonly mode: string; readonly sha: string }>;
const RACY_WINDOW_MS = 2000;

interface Staged {
  readonly mode: string;
  readonly sha: string;
  readonly path: Buffer;
}

/**
 * The agent's working tree as a tree object in the host's mirror, read by the host (no git runs in the
 * agent's tree, no `.gitattributes` filter or fsmonitor applies): a no-follow walk that takes regular files
 * (mode 100644, or 100755 when any execute bit is set) and symbolic links (their target, mode 120000), skips
 * every `.git`, genswarms' own top entries, FIFOs and devices, and stops at the SNAPSHOT_* limits. The tree is
 * built with `update-index --index-info -z` and `write-tree` on a host index in the mirror. `.gitignore` is
 * honoured by the host's git against the names only (`check-ignore --no-index`), never by reading the tree.
 */
export async function snapshotWorktree(input: SnapshotInput): Promise<Snapshot> {
  const objects = path.join(input.mirror, 'objects');
  const staged: Staged[] = [];
  const state = { files: 0, bytes: 0, skipped: 0, truncated: false };
  const began = Date.now();
  const seen: SnapshotCache = new Map();
  const overBudget: Buffer[] = [];
  await walk(input.workspace, [], 0);
  if (overBudget.length > 0) staged.push(...(await headEntries(input, overBudget)));
  const kept = await dropIgnored(staged, input);
  await fsp.rm(input.indexFile, { force: true });
  const git = { gitDir: input.mirror, emptyHome: input.emptyHome, env: { GIT_INDEX_FILE: input.indexFile } };
  const lines = kept.map((s) => Buffer.concat([Buffer.from(`${s.mode} ${s.sha}\t`), s.path, Buffer.from([0])]));
  await runHostGit(['update-index', '-z', '--index-info'], { ...git, input: Buffer.concat(lines) });
  const tree = (await runHostGit(['write-tree'], git)).stdout.toString('latin1').trim();
  await fsp.rm(input.indexFile, { force: true });
  if (input.cache !== undefined) {
    input.cache.clear();
    for (const [k, v] of seen) input.cache.set(k, v);
  }
  return { tree, skipped: state.skipped, truncated: state.truncated };

  async function walk(dir: FileHandle, at: readonly Buffer[], depth: number): Promise<void> {
    const { entries, truncated } = await listDir(dir, SNAPSHOT_FILES_MAX);
    if (truncated) state.truncated = true;
    for (const e of entries) {
      const name = e.name.toString('latin1');
      if (name === '.' || name === '..' || name.toLowerCase() === '.git' || (depth === 0 && TOP_SKIPPED.has(name))) continue;
      const rel = [...at, e.name];
      if (state.files >= SNAPSHOT_FILES_MAX) return void (state.truncated = true);
      if (e.kind === 'dir') {
        if (depth + 1 >= SNAPSHOT_DEPTH_MAX) {
          state.truncated = true;
          continue;
        }
        const sub = await openDirIn(dir, e.name);
        if (sub === undefined) continue;
        try {
          await walk(sub, rel, depth + 1);
        } finally {
          await sub.close();
        }
      } else if (e.kind === 'link') {
        const target = await readLinkIn(dir, e.name);
        if (target === undefined) continue;
        staged.push({ mode: '120000', sha: await storeBlob(objects, target), path: joinPath(rel) });
        state.files += 1;
      } else if (e.kind === 'file') {
        await takeFile(dir, e, rel);
      } else state.skipped += 1;
    }
  }

  async function takeFile(dir: FileHandle, e: TreeEntry, rel: readonly Buffer[]): Promise<void> {
    const key = joinPath(rel).toString('latin1');
    const hit = input.cache?.get(key);
    if (hit !== undefined && hit.stamp === e.stamp && e.uid === input.owner && e.size <= SNAPSHOT_TOTAL_MAX_BYTES - state.bytes) {
      state.files += 1;
      state.bytes += e.size;
      seen.set(key, hit);
      staged.push({ mode: hit.mode, sha: hit.sha, path: joinPath(rel) });
      return;
    }
    if (e.size > SNAPSHOT_TOTAL_MAX_BYTES - state.bytes) {
      state.skipped += 1;
      state.truncated = true;
      overBudget.push(joinPath(rel));
      return;
    }
    const read = e.size > SNAPSHOT_FILE_MAX_BYTES ? await streamFile(dir, e.name) : await memoryFile(dir, e.name);
    if (read === undefined) {
      state.skipped += 1;
      return;
    }
    state.bytes += read.size;
    state.files += 1;
    const mode = (read.mode & 0o111) !== 0 ? '100755' : '100644';
    const sha = read.sha;
    // the stamp is lstat's, taken before the read: a change after it shows as a new stamp next time
    if (e.ctimeMs < began - RACY_WINDOW_MS && (e.mode & 0o111) === (read.mode & 0o111)) seen.set(key, { stamp: e.stamp, mode, sha });
    staged.push({ mode, sha, path: joinPath(rel) });
  }

  async function memoryFile(dir: FileHandle, name: Buffer): Promise<{ sha: string; size: number; mode: number } | undefined> {
    const read = await readFileIn(dir, name, Math.min(SNAPSHOT_FILE_MAX_BYTES, SNAPSHOT_TOTAL_MAX_BYTES - state.bytes), input.owner);
    if (read.kind !== 'ok') return undefined;
    return { sha: await storeBlob(objects, read.data), size: read.data.length, mode: read.mode };
  }

  /** A large file, piped into the host's `hash-object` in the mirror up to its size at open (never past the budget). */
  async function streamFile(dir: FileHandle, name: Buffer): Promise<{ sha: string; size: number; mode: number } | undefined> {
    const file = await openRegularIn(dir, name, input.owner);
    if (file === undefined) return undefined;
    try {
      if (file.size > SNAPSHOT_TOTAL_MAX_BYTES - state.bytes) return undefined;
      const stream = file.handle.createReadStream({ start: 0, end: Math.max(0, file.size - 1), autoClose: false });
      const r = await runHostGit(['hash-object', '-w', '--no-filters', '--stdin'], {
        gitDir: input.mirror,
        emptyHome: input.emptyHome,
        input: file.size === 0 ? '' : stream,
        timeoutMs: HOST_GIT_LONG_TIMEOUT_MS,
      });
      return { sha: r.stdout.toString('latin1').trim(), size: file.size, mode: file.mode };
    } finally {
      await file.handle.close();
    }
  }
}

/** The branch head's entries for `paths` (files past the byte budget), from the host's listing of its tree. */
async function headEntries(input: SnapshotInput, paths: readonly Buffer[]): Promise<Staged[]> {
  const want = new Set(paths.map((p) => p.toString('latin1')));
  const r = await runHostGit(['ls-tree', '-r', '-z', '--full-tree', input.head], { gitDir: input.mirror, emptyHome: input.emptyHome });
  const out: Staged[] = [];
  for (const rec of r.stdout.toString('latin1').split('\0')) {
    const m = /^([0-7]{6}) blob ([0-9a-f]{40})\t([\s\S]+)$/.exec(rec);
    if (m !== null && want.has(m[3] as string))
      out.push({ mode: m[1] as string, sha: m[2] as string, path: Buffer.from(m[3] as string, 'latin1') });
  }
  return out;
}

function joinPath(parts: readonly Buffer[]): Buffer {
  return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from('/'), p])));
}

/**
 * Drops what the tree's `.gitignore` files ignore. The host's git matches names only: the `.gitignore` blobs
 * just stored are written into a scratch work tree of the host's (plain files, no links), and
 * `check-ignore --no-index` runs there on the staged names.
 */
async function dropIgnored(staged: readonly Staged[], input: SnapshotInput): Promise<Staged[]> {
  const ignoreFiles = staged.filter((s) => s.mode !== '120000' && path.posix.basename(s.path.toString('latin1')) === '.gitignore');
  if (ignoreFiles.length === 0) return [...staged];
  const scratch = `${input.indexFile}.ignore`;
  await fsp.rm(scratch, { recursive: true, force: true });
  try {
    for (const f of ignoreFiles) {
      const rel = f.path.toString('latin1');
      if (rel.split('/').some((p) => p === '..' || p === '')) continue;
      const content = await runHostGit(['cat-file', 'blob', f.sha], { gitDir: input.mirror, emptyHome: input.emptyHome });
      const dest = path.join(scratch, ...rel.split('/'));
      await fsp.mkdir(path.dirname(dest), { recursive: true, mode: 0o700 });
      await fsp.writeFile(dest, content.stdout, { mode: 0o600, flag: 'wx' });
    }
    const names = Buffer.concat(staged.flatMap((s) => [s.path, Buffer.from([0])]));
    const r = await runHostGit(['check-ignore', '--no-index', '--stdin', '-z'], {
      gitDir: input.mirror,
      emptyHome: input.emptyHome,
      cwd: scratch,
      env: { GIT_WORK_TREE: scratch },
      input: names,
      okCodes: [1],
    });
    const ignored = new Set(
      r.stdout
        .toString('latin1')
        .split('\0')
        .filter((n) => n !== ''),
    );
    // a .gitignore itself is always kept: it is part of the work
    return staged.filter((s) => !ignored.has(s.path.toString('latin1')) || ignoreFiles.includes(s));
  } finally {
    await fsp.rm(scratch, { recursive: true, force: true });
  }
}
