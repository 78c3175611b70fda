import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Every entry below `dir` (recursive, lstat only), relative and sorted: the "nothing appeared" witness. */
export async function treeOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const name of await readdir(d)) {
      const p = join(d, name);
      out.push(relative(dir, p));
      const st = await lstat(p);
      if (st.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return out.sort();
}
