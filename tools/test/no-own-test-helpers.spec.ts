/**
 * Specs and test support use @genswarms/test-kit for polling and refusals instead of writing their own
 * (tools/test/support/own-test-helpers.ts says what counts). Program fixtures (`test/fixtures/`) are
 * processes the specs start, not specs, and are not checked.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findOwnHelpers } from './support/own-test-helpers';
import { REPO_ROOT, specAndSupportFiles } from './support/spec-files';

describe('the own-helper finder', () => {
  test.each<[string, string]>([
    ['a waitFor function', 'async function waitFor(check: () => boolean): Promise<void> {}'],
    ['an exported waitUntil', 'export async function waitUntil(ok: () => boolean) { return ok(); }'],
    ['an until arrow', 'const until = async (f: () => boolean) => f();'],
    ['an eventually function expression', 'const eventually = async function (f: () => boolean) { return f(); };'],
    ['a pollUntil', 'function pollUntil() {}'],
    ['a codeOf', 'function codeOf(fn: () => unknown): string { return ""; }'],
    ['a refusal arrow', 'const refusal = (fn: () => unknown): unknown => fn();'],
    [
      'a one-line counted poll',
      'async function f(ok: () => boolean) { for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 20)); }',
    ],
    ['a while poll on a flag', 'async function f(t: () => string) { while (!t().includes("x")) await sleep(10); }'],
    [
      'a deadline loop',
      'async function f(ok: () => boolean) { const d = Date.now() + 5; while (Date.now() < d) { if (ok()) return true; await delay(5); } }',
    ],
    [
      'a for(;;) probe loop',
      'async function f(p: () => number | undefined) { for (;;) { const v = p(); if (v !== undefined) return v; await setTimeout(20); } }',
    ],
    [
      'a counted loop that breaks when a check holds',
      'async function f(ok: () => boolean) { for (let i = 0; i < 9; i++) { if (ok()) break; await sleep(5); } }',
    ],
    [
      'a do-while poll',
      'async function f(ok: () => boolean) { do { await new Promise<void>((r) => setTimeout(() => r(), 5)); } while (!ok()); }',
    ],
  ])('flags %s', (_name, text) => {
    expect(findOwnHelpers('x.spec.ts', text)).toHaveLength(1);
  });

  test.each<[string, string]>([
    ['the kit in use', "import { waitFor } from '@genswarms/test-kit';\nawait waitFor(() => ok(), 'ok');"],
    ['a domain wrapper on the kit', 'async function waitForDone(dir: string) { return waitFor(() => read(dir), "done.json"); }'],
    [
      'a counted repetition with a pause (episodes, pacing)',
      'async function f() { for (let ep = 0; ep < EPISODES; ep++) { post(); await sleep(1500); } }',
    ],
    ['setImmediate turns', 'async function f() { for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r)); }'],
    ['a loop over servers to close', 'async function f(s: S[]) { for (const x of s) await new Promise<void>((r) => x.close(() => r())); }'],
    ['a number named until', 'const until = Date.now() + 6000;\nwhile (Date.now() < until);'],
    ['a method named waitFor (a fixture class)', 'class Fifo { waitFor(token: string) { return token; } }'],
    ['the names inside a string', 'const src = "async function waitFor() { while (x) await sleep(1); }";'],
    ['a refusal property', 'const r = { refusal: 1 };'],
  ])('does not flag %s', (_name, text) => {
    expect(findOwnHelpers('x.spec.ts', text)).toEqual([]);
  });
});

describe('specs use @genswarms/test-kit', () => {
  it('finds the spec files of the libs, apps and tools', () => {
    const files = specAndSupportFiles();
    expect(files).toEqual(
      expect.arrayContaining(['libs/runners/test/support.ts', 'libs/security/src/index.spec.ts', 'tools/test/no-own-test-helpers.spec.ts']),
    );
    expect(files.filter((f) => f.includes('/fixtures/') || f.startsWith('tools/test-kit/'))).toEqual([]);
  });

  it('no spec or test support file defines its own polling or refusal helper', () => {
    const found = specAndSupportFiles().flatMap((file) =>
      findOwnHelpers(file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')).map((h) => `${file}:${h.line}: ${h.what}`),
    );
    expect(found).toEqual([]);
  });
});
