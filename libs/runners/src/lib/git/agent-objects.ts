import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { checkLooseObject, GIT_OBJECT_MAX_BYTES, storeLooseObject } from './loose-object';
import { HOST_GIT_LONG_TIMEOUT_MS, runHostGit } from './host-git';
import { listDir, openDirChain, openRegularIn, readFileIn } from './untrusted-tree';

/** Most bytes of pack files taken from one agent clone per read. */
export const AGENT_PACKS_MAX_BYTES = 512 * 1024 * 1024;
/** Most loose objects looked at per read. */
export const AGENT_LOOSE_MAX = 200_000;
/** Largest `packed-refs` read (bytes). */
const PACKED_REFS_MAX_BYTES = 4 * 1024 * 1024;

export interface MirrorTarget {
  /** The host's bare mirror of the agent (its `objects/info/alternates` names the base). */
  readonly mirror: string;
  readonly emptyHome: string;
  /**
   * The uid whose object files are taken (the workspace's owner). A file of another uid is taken only when the
   * base already holds it (the clone's shared files are root's): a hard link to another repository's objects
   * never enters the mirror.
   */
  readonly owner: number;
}

/**
 * Copies the objects of an agent's clone into the host's mirror without running git in the clone: loose
 * objects are inflated and hashed here (`checkLooseObject`) before being stored; each pack is fed to
 * `git index-pack --stdin --fsck-objects` in the mirror, which rebuilds its index (the agent's `.idx` is
 * never used) and checks every object. Links, FIFOs and oversize files are skipped; the agent's alternates,
 * config and hooks are never read.
 */
export async function importAgentObjects(gitDir: FileHandle, target: MirrorTarget): Promise<{ skipped: number }> {
  const objects = await openDirChain(gitDir, ['objects']);
  if (objects === undefined) return { skipped: 0 };
  const into = path.join(target.mirror, 'objects');
  let skipped = 0;
  try {
    const { entries } = await listDir(objects, 300);
    for (const e of entries) {
      const name = e.name.toString('latin1');
      if (e.kind !== 'dir' || !/^[0-9a-f]{2}$/.test(name)) continue;
      skipped += await importLooseDir(objects, name, into, target);
    }
    skipped += await importPacks(objects, target);
  } finally {
    await objects.close();
  }
  return { skipped };
}

async function importLooseDir(objects: FileHandle, prefix: string, into: string, target: MirrorTarget): Promise<number> {
  const alternates = await alternatesOf(target.mirror);
  const dir = await openDirChain(objects, [prefix]);
  if (dir === undefined) return 1;
  let skipped = 0;
  try {
    const { entries } = await listDir(dir, AGENT_LOOSE_MAX);
    for (const e of entries) {
      const rest = e.name.toString('latin1');
      if (!/^[0-9a-f]{38}$/.test(rest)) continue;
      const sha = prefix + rest;
      if (await present(path.join(into, prefix, rest))) continue;
      if (await anyPresent(alternates.map((alt) => path.join(alt, prefix, rest)))) continue;
      const read = await readFileIn(dir, e.name, GIT_OBJECT_MAX_BYTES, target.owner);
      if (read.kind !== 'ok' || checkLooseObject(read.data, sha).kind !== 'ok') {
        skipped += 1;
        continue;
      }
      await storeLooseObject(into, sha, read.data);
    }
  } finally {
    await dir.close();
  }
  return skipped;
}

async function importPacks(objects: FileHandle, target: MirrorTarget): Promise<number> {
  const dir = await openDirChain(objects, ['pack']);
  if (dir === undefined) return 0;
  let budget = AGENT_PACKS_MAX_BYTES;
  let skipped = 0;
  try {
    const { entries } = await listDir(dir, 1000);
    for (const e of entries) {
      if (e.kind !== 'file' || !/^pack-[0-9a-f]{40}\.pack$/.test(e.name.toString('latin1'))) continue;
      if (e.size > budget) {
        skipped += 1;
        continue;
      }
      const file = await openRegularIn(dir, e.name, undefined);
      if (file === undefined || file.size < 32 || file.size > budget) {
        await file?.handle.close();
        skipped += 1;
        continue;
      }
      try {
        // the trailer is the SHA-1 of the pack: a pack the mirror (or the base) already holds is not indexed again
        const trailer = Buffer.alloc(20);
        await file.handle.read(trailer, 0, 20, file.size - 20);
        if (await hasPack(target.mirror, trailer.toString('hex'))) continue;
        if (file.uid !== target.owner) {
          skipped += 1;
          continue;
        }
        budget -= file.size;
        const stream = file.handle.createReadStream({ start: 0, end: file.size - 1, autoClose: false });
        await runHostGit(['index-pack', '--stdin', '--fsck-objects'], {
          gitDir: target.mirror,
          emptyHome: target.emptyHome,
          input: stream,
          timeoutMs: HOST_GIT_LONG_TIMEOUT_MS,
        }).catch(() => (skipped += 1)); // expected: a broken pack is left out; its commits then read as missing
      } finally {
        await file.handle.close();
      }
    }
  } finally {
    await dir.close();
  }
  return skipped;
}

async function hasPack(mirror: string, trailer: string): Promise<boolean> {
  const dirs = [path.join(mirror, 'objects'), ...(await alternatesOf(mirror))];
  return anyPresent(dirs.map((d) => path.join(d, 'pack', `pack-${trailer}.pack`)));
}

/** The object directories the mirror borrows from (the host wrote that file: the base's objects). */
async function alternatesOf(mirror: string): Promise<string[]> {
  const text = await fsp.readFile(path.join(mirror, 'objects', 'info', 'alternates'), 'utf8').catch(() => ''); // expected: no alternates
  return text.split('\n').filter((l) => l !== '');
}

async function anyPresent(files: readonly string[]): Promise<boolean> {
  for (const f of files) if (await present(f)) return true;
  return false;
}

/**
 * The commit the agent's branch names, read from the clone's files (loose ref, then `packed-refs`); undefined
 * when the branch does not exist. A value that is not a 40-digit id → `git_failed`.
 */
export async function readAgentBranch(gitDir: FileHandle, branch: string): Promise<string | undefined> {
  const parts = ['refs', 'heads', ...branch.split('/')];
  const dir = await openDirChain(gitDir, parts.slice(0, -1));
  if (dir !== undefined) {
    try {
      const read = await readFileIn(dir, parts[parts.length - 1] as string, 128);
      if (read.kind === 'ok') return parseSha(read.data.toString('latin1').trim());
    } finally {
      await dir.close();
    }
  }
  const packed = await readFileIn(gitDir, 'packed-refs', PACKED_REFS_MAX_BYTES);
  if (packed.kind !== 'ok') return undefined;
  const want = `refs/heads/${branch}`;
  for (const line of packed.data.toString('latin1').split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === want && sha !== undefined) return parseSha(sha);
  }
  return undefined;
}

function parseSha(text: string): string {
  if (!/^[0-9a-f]{40}$/.test(text)) throw new RunnerError('git_failed', "the agent's branch does not name a commit id");
  return text;
}

async function present(file: string): Promise<boolean> {
  try {
    await fsp.lstat(file);
    return true;
  } catch {
    return false; // expected: not there
  }
}
