/**
 * The spec layout (CONTRIBUTING.md "Where specs go"), checked file by file:
 * - specs are `*.spec.ts` under a project's `src/` or `test/`; no `*.test.ts`, no `__tests__/`;
 * - a spec under `src/` is a unit spec of its concern: it imports its own project's code relatively;
 * - a project with a barrel pins it in `src/index.spec.ts` (`Object.keys` of the barrel);
 * - production code under `src/` imports no spec and no test support (`test/`, `test-support/`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { projectRoots, tsFilesUnder } from './spec-files';

function relativeImports(file: string): string[] {
  return ts
    .preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith('./') || spec.startsWith('../'));
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
}

const isTestSupport = (rel: string): boolean => /(^|\/)(test|test-support)\//.test(rel) || rel.endsWith('.spec.ts');

/** Every layout breach of one project, as `file: why` lines. */
function projectBreaches(root: string, project: string): string[] {
  const out: string[] = [];
  const files = tsFilesUnder(project, root);
  const src = path.join(root, project, 'src') + path.sep;
  for (const rel of files) {
    const inProject = rel.slice(project.length + 1);
    const abs = path.join(root, rel);
    if (rel.split('/').includes('__tests__')) out.push(`${rel}: no __tests__ folders; specs go in src/ or test/`);
    if (rel.endsWith('.test.ts')) out.push(`${rel}: name specs *.spec.ts`);
    if (rel.endsWith('.spec.ts') && !/^(src|test)\//.test(inProject)) out.push(`${rel}: specs live under src/ or test/`);
    if (rel.endsWith('.spec.ts') && inProject.startsWith('src/')) {
      const own = relativeImports(abs)
        .map((s) => resolveRelative(abs, s))
        .some((f) => f !== undefined && f.startsWith(src) && !f.endsWith('.spec.ts'));
      if (!own) out.push(`${rel}: a spec under src/ tests its own module (import it relatively), else it belongs in test/`);
    }
    if (inProject.startsWith('src/') && !isTestSupport(rel)) {
      for (const s of relativeImports(abs)) {
        const target = resolveRelative(abs, s);
        if (target !== undefined && isTestSupport(path.relative(root, target)))
          out.push(`${rel}: production code imports test code (${s})`);
      }
    }
  }
  const barrel = path.join(root, project, 'src', 'index.ts');
  const pin = path.join(root, project, 'src', 'index.spec.ts');
  if (fs.existsSync(barrel) && !(fs.existsSync(pin) && /Object\.keys\(/.test(fs.readFileSync(pin, 'utf8')))) {
    out.push(`${project}/src/index.spec.ts: pin the barrel's exports (Object.keys(lib).sort())`);
  }
  return out;
}

/** Every layout breach in the workspace at `root`. */
export function specLayoutBreaches(root: string): string[] {
  return projectRoots(root).flatMap((p) => projectBreaches(root, p));
}
