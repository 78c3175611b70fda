/**
 * No hand-written source module is over 450 lines (code and specs alike): a module that long holds more than one
 * idea. Generated files (under a `generated/` directory) are what their generator makes them.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_LINES = 450;
const SOURCE = /\.(ts|tsx|js|cjs|mjs)$/;

function handWrittenSources(): string[] {
  const out = execFileSync('/usr/bin/git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out
    .split('\0')
    .filter((f) => SOURCE.test(f) && !f.split('/').includes('generated') && !f.endsWith('.d.ts'))
    .filter((f) => fs.existsSync(path.join(ROOT, f)));
}

function linesOf(file: string): number {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

describe('module sizes', () => {
  it(`no hand-written source module is over ${MAX_LINES} lines`, () => {
    const over = handWrittenSources()
      .map((f) => ({ f, n: linesOf(f) }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n} lines`);
    expect(over).toEqual([]);
  });

  it('the scan sees the repository (a check that finds nothing to check proves nothing)', () => {
    const files = handWrittenSources();
    expect(files.length).toBeGreaterThan(500);
    expect(files).toContain('libs/engine/src/index.ts');
    expect(files.some((f) => f.includes('/generated/'))).toBe(false);
  });
});
