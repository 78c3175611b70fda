/**
 * Import circles inside one project: every relative import and re-export of its `src/` (type-only ones
 * too, as `madge --circular` counts them), resolved to files, then the strongly connected components of
 * that graph. Imports of other projects (`@genswarms/x`) are not followed: project-level cycles are
 * the module-boundaries rule's job.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `dir` except specs, declarations and test support. */
export function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.endsWith('.d.ts') && !f.split(path.sep).includes('test-support'))
    .map((f) => path.join(dir, f))
    .sort();
}

/** The file a relative specifier names (`./x`, `./x.js`, `./dir` → `./dir/index.ts`), or undefined. */
function resolveRelative(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
}

/** file → the files of the same set it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const inSet = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
      .map((spec) => resolveRelative(file, spec))
      .filter((f): f is string => f !== undefined && inSet.has(f));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file, or one file importing itself (Tarjan). */
export function findCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** The import circles of a project's `src/`, as paths relative to `root`. */
export function projectCircles(root: string, projectRoot: string): string[][] {
  const graph = importGraph(sourceFiles(path.join(root, projectRoot, 'src')));
  return findCircles(graph).map((c) => c.map((f) => path.relative(root, f)));
}
