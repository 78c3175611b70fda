/**
 * The repository stands alone: no tracked file cites a document that lives outside it. The docs pages
 * (`docs/*.md`, the READMEs) are the behaviour reference; code comments point at them or at nothing.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Built from fragments so this file does not match itself. */
const OUTSIDE_REFERENCES: readonly RegExp[] = [
  new RegExp(['CONTR', 'ACT(\\.md)?\\s*§'].join('')),
  new RegExp(['CONTR', 'ACT\\.md'].join('')),
  new RegExp(['DES', 'IGN\\.md'].join('')),
  new RegExp(['HOUSE', '-STYLE'].join('')),
  new RegExp(['TOOL', 'CHAIN\\.md'].join('')),
  new RegExp(['\\.\\./', 'shared/'].join('')),
  new RegExp(['/work/', 'shared'].join('')),
];

/** Stale promises of work that has since been done (or dropped). */
const STALE_LATER: readonly RegExp[] = [/provides? (these|one) later/i, /\bengine later provides\b/i];

function trackedTextFiles(): string[] {
  const out = execFileSync('/usr/bin/git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return out
    .split('\0')
    .filter((f) => f !== '' && f !== 'package-lock.json' && !/\.(png|jpg|node|gz|tar)$/.test(f))
    .filter((f) => fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile());
}

function hits(patterns: readonly RegExp[]): string[] {
  const found: string[] = [];
  for (const file of trackedTextFiles()) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (patterns.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('no tracked file cites a document outside the repository', () => {
    expect(hits(OUTSIDE_REFERENCES)).toEqual([]);
  });

  it('no comment promises that something is provided later', () => {
    expect(hits(STALE_LATER)).toEqual([]);
  });

  it.each([
    ['a contract section', ['see CONTR', 'ACT §10.5'].join('')],
    ['the contract file', ['pinned in CONTR', 'ACT.md'].join('')],
    ['the shared folder', ['read ../', 'shared/DES', 'IGN.md'].join('')],
    ['the style guide', ['HOUSE', '-STYLE rule 5'].join('')],
  ])('the check catches %s', (_name, line) => {
    expect(OUTSIDE_REFERENCES.some((re) => re.test(line))).toBe(true);
  });
});
