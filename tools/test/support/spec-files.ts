/** The projects of the workspace and their spec and test-support files, found on disk (untracked files too). */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Never walked: build output, dependencies, caches. */
const GENERATED_DIRS = new Set(['node_modules', 'dist', 'out-tsc', '.nx', 'coverage', 'build']);

/** Every project root (a folder with a package.json): `tools`, `tools/test-kit`, `libs/*`, `apps/*`. */
export function projectRoots(root = REPO_ROOT): string[] {
  const roots = ['tools', 'tools/test-kit'];
  for (const group of ['libs', 'apps']) {
    for (const name of fs.readdirSync(path.join(root, group)).sort()) {
      if (fs.existsSync(path.join(root, group, name, 'package.json'))) roots.push(`${group}/${name}`);
    }
  }
  return roots;
}

/** Every `.ts` file below `dir` (repo-relative), skipping generated folders and nested projects. */
export function tsFilesUnder(dir: string, root = REPO_ROOT): string[] {
  const nested = new Set(projectRoots(root));
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!GENERATED_DIRS.has(entry.name) && !(nested.has(child) && child !== dir)) walk(child);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        out.push(child);
      }
    }
  };
  if (fs.existsSync(path.join(root, dir))) walk(dir);
  return out.sort();
}

/** Spec files (`*.spec.ts`) and test support (any `.ts` under a `test/` or `test-support/` folder), fixtures excepted. */
export function specAndSupportFiles(root = REPO_ROOT): string[] {
  return projectRoots(root)
    .filter((p) => p !== 'tools/test-kit')
    .flatMap((p) => tsFilesUnder(p, root))
    .filter((f) => f.endsWith('.spec.ts') || /(^|\/)(test|test-support)\//.test(f))
    .filter((f) => !f.split('/').includes('fixtures'));
}
