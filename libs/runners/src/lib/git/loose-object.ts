import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/** Largest object (uncompressed bytes) taken from an agent's clone or working tree. */
export const GIT_OBJECT_MAX_BYTES = 64 * 1024 * 1024;

const OBJECT_TYPES = new Set(['blob', 'tree', 'commit', 'tag']);

export type LooseCheck = { kind: 'ok' } | { kind: 'bad'; reason: string };

/**
 * Verifies a loose object file read from an agent's clone (a pure reader: no git runs on it): it inflates within
 * GIT_OBJECT_MAX_BYTES, its header is `<type> <size>\0` with a known type and the exact size, and the SHA-1 of
 * the inflated bytes is its name. Only then may it be copied into the host's mirror.
 */
export function checkLooseObject(compressed: Buffer, sha: string): LooseCheck {
  let raw: Buffer;
  try {
    raw = inflateSync(compressed, { maxOutputLength: GIT_OBJECT_MAX_BYTES + 64 });
  } catch {
    // expected: a stream that does not inflate is the typed answer `bad`
    return { kind: 'bad', reason: 'does not inflate within the size limit' };
  }
  const nul = raw.indexOf(0);
  if (nul < 0 || nul > 32) return { kind: 'bad', reason: 'has no header' };
  const m = /^([a-z]+) ([0-9]{1,10})$/.exec(raw.subarray(0, nul).toString('latin1'));
  if (m === null || !OBJECT_TYPES.has(m[1] as string)) return { kind: 'bad', reason: 'has a bad header' };
  if (Number(m[2]) !== raw.length - nul - 1) return { kind: 'bad', reason: 'has a wrong size' };
  if (createHash('sha1').update(raw).digest('hex') !== sha) return { kind: 'bad', reason: 'does not hash to its name' };
  return { kind: 'ok' };
}

/** The object id of `data` as a `type` object. */
export function objectId(type: 'blob' | 'tree' | 'commit', data: Buffer): string {
  return createHash('sha1').update(`${type} ${data.length}\0`).update(data).digest('hex');
}

/** Writes a verified (or host-made) object into `objectsDir` unless present: temporary file, then link. */
export async function storeLooseObject(objectsDir: string, sha: string, compressed: Buffer): Promise<void> {
  const dir = path.join(objectsDir, sha.slice(0, 2));
  const file = path.join(dir, sha.slice(2));
  if (await present(file)) return;
  await fsp.mkdir(dir, { recursive: true, mode: 0o755 });
  const tmp = path.join(dir, `.tmp-${process.pid}-${sha.slice(2, 12)}-${Math.random().toString(36).slice(2)}`);
  await fsp.writeFile(tmp, compressed, { mode: 0o444, flag: 'wx' });
  try {
    await fsp.link(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

/** Stores `data` as a blob made by the host; returns its id. */
export async function storeBlob(objectsDir: string, data: Buffer): Promise<string> {
  const sha = objectId('blob', data);
  const file = path.join(objectsDir, sha.slice(0, 2), sha.slice(2));
  if (!(await present(file)))
    await storeLooseObject(objectsDir, sha, deflateSync(Buffer.concat([Buffer.from(`blob ${data.length}\0`), data])));
  return sha;
}

async function present(file: string): Promise<boolean> {
  try {
    await fsp.lstat(file);
    return true;
  } catch {
    return false; // expected: not stored yet
  }
}
