import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The guard that keeps genswarms-agent runnable inside sandboxes: bwrap/docker bind only its dist
 * directory (and node), so at runtime it may load node built-ins and its own files, nothing else.
 * Checked on the sources (no build needed): every import/require/dynamic import of a non-spec file.
 */
const ROOT = resolve(__dirname, '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(full);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((ref) => ref.fileName);
}

const isAllowed = (specifier: string): boolean =>
  specifier.startsWith('node:') || specifier.startsWith('./') || specifier.startsWith('../');

describe('genswarms-agent runtime imports (sandbox-safe)', () => {
  const files = sourceFiles(SRC);

  it('finds the sources (the walk itself works)', () => {
    expect(files.map((f) => relative(SRC, f))).toEqual(
      expect.arrayContaining(['main.ts', 'index.ts', join('lib', 'inbox', 'inbox-reader.ts')]),
    );
    expect(files.some((f) => f.endsWith('.spec.ts'))).toBe(false);
  });

  it('sees every kind of import the checker must catch', () => {
    const text =
      "import a from 'zod';\nexport { b } from 'yaml';\nconst c = require('left-pad');\nvoid import('chalk');\nimport type { D } from '@genswarms/security';\nimport './x';\n";
    expect(ts.preProcessFile(text, true, true).importedFiles.map((r) => r.fileName)).toEqual([
      'zod',
      'yaml',
      'left-pad',
      'chalk',
      '@genswarms/security',
      './x',
    ]);
  });

  it('imports only node:* built-ins and relative files', () => {
    const offenders = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => !isAllowed(s))
        .map((s) => `${relative(ROOT, file)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('never leaves src through a relative import', () => {
    const escaping = files.flatMap((file) =>
      specifiers(file)
        .filter((s) => s.startsWith('.') && relative(SRC, resolve(file, '..', s)).startsWith('..'))
        .map((s) => `${relative(ROOT, file)}: ${s}`),
    );
    expect(escaping).toEqual([]);
  });

  it('declares no runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(pkg.dependencies ?? {}).toEqual({});
  });
});
