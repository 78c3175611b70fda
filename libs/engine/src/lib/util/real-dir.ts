/** A directory inside an agent-writable tree: must be a real directory (never a link); created 0700 if missing. */
import * as fsp from 'node:fs/promises';

export type RealDir = { kind: 'ok'; dev: bigint; ino: bigint } | { kind: 'refused'; reason: 'symlink' | 'not_a_directory' | 'unavailable' };

async function identify(dir: string): Promise<RealDir | 'missing'> {
  try {
    const st = await fsp.lstat(dir, { bigint: true });
    if (st.isSymbolicLink()) return { kind: 'refused', reason: 'symlink' };
    if (!st.isDirectory()) return { kind: 'refused', reason: 'not_a_directory' };
    return { kind: 'ok', dev: st.dev, ino: st.ino };
  } catch {
    return 'missing';
  }
}

export async function ensureRealDir(dir: string): Promise<RealDir> {
  const first = await identify(dir);
  if (first !== 'missing') return first;
  await fsp.mkdir(dir, { mode: 0o700 }).catch(() => undefined);
  const again = await identify(dir);
  return again === 'missing' ? { kind: 'refused', reason: 'unavailable' } : again;
}
