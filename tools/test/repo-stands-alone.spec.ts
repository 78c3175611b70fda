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

/** A tracker number ("issue 13", "Issue #4"): the tracker is not part of the repository. Built from fragments. */
const TRACKER_NUMBER = new RegExp(['\\b[Ii]ss', 'ues? #?\\d+'].join(''));

/** A section mark, and the document named just before it on the same line (if any). */
const SECTION_MARK = /§\s?(\d+(?:\.\d+)*)/g;
const STANDARD = /(?:\bRFC \d+|[\w.-]+\.html|\bdraft-[\w-]+)$/;
const DOC_NAME = /([\w./-]+\.md)(?:#[\w-]*)?\)?\]?\(?[\w./-]*(?:#[\w-]*)?\)?\s*$/;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const headingCache = new Map<string, { numbers: Set<string>; anchors: Set<string> } | null>();
/** The numbered sections ("## 9. Secrecy" → "9") and the anchors of a tracked markdown file, or null if none. */
function headingsOf(file: string): { numbers: Set<string>; anchors: Set<string> } | null {
  if (headingCache.has(file)) return headingCache.get(file) ?? null;
  const full = path.join(ROOT, file);
  let found: { numbers: Set<string>; anchors: Set<string> } | null = null;
  if (fs.existsSync(full) && fs.statSync(full).isFile()) {
    found = { numbers: new Set(), anchors: new Set() };
    const counts = new Map<string, number>();
    for (const line of fs.readFileSync(full, 'utf8').split('\n')) {
      const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
      if (heading === undefined) continue;
      const num = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading)?.[1];
      if (num !== undefined) found.numbers.add(num);
      const base = anchorOf(heading);
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      found.anchors.add(n === 0 ? base : `${base}-${n}`);
    }
  }
  headingCache.set(file, found);
  return found;
}

/** Where a document named in `file` lives: beside it, under docs/, or from the root. */
function resolveDoc(file: string, name: string): string | null {
  const candidates = [path.join(path.dirname(file), name), path.join('docs', path.basename(name)), name];
  for (const c of candidates) {
    const norm = path.normalize(c);
    if (headingsOf(norm)) return norm;
  }
  return null;
}

/** Every `§N` names a numbered section that exists in the document it follows (or in its own page). */
function danglingSections(file: string, line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(SECTION_MARK)) {
    const section = m[1] ?? '';
    // "page.md §8, §11" and "page.md (§1–§9)": the page is named once, before the first mark
    const before = line
      .slice(0, m.index)
      .replace(/(?:§\s?\d+(?:\.\d+)*[\s,–()-]*(?:and\s+)?)+$/, '')
      .replace(/[\s(]+$/, '');
    if (STANDARD.test(before)) continue; // a section of a published standard (RFC 9112 §6)
    const named = DOC_NAME.exec(before)?.[1];
    const doc = named ? resolveDoc(file, named) : file.endsWith('.md') ? file : null;
    const numbers = doc ? headingsOf(doc)?.numbers : undefined;
    if (!numbers?.has(section)) out.push(`§${section}${doc ? ` (no such section in ${doc})` : ' (names no document)'}`);
    // code and specs link the heading itself (`page.md#anchor`, checked below); prose in the docs may say §N
    else if (!file.endsWith('.md')) out.push(`§${section} (link ${doc ?? 'the page'}#<anchor> instead)`);
  }
  return out;
}

/** Every link to `page.md#anchor` names a heading of that page. */
function danglingAnchors(file: string, line: string): string[] {
  const out: string[] = [];
  for (const [, page = '', anchor = ''] of line.matchAll(/([\w./-]*\.md)#([\w-]+)/g)) {
    const doc = resolveDoc(file, page);
    if (doc && !headingsOf(doc)?.anchors.has(anchor)) out.push(`${page}#${anchor}`);
  }
  for (const [, anchor = ''] of line.matchAll(/\]\(#([\w-]+)\)/g)) {
    if (file.endsWith('.md') && !headingsOf(file)?.anchors.has(anchor)) out.push(`#${anchor}`);
  }
  return out;
}

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

/** This spec's own examples of what the checks catch. */
const SELF = 'tools/test/repo-stands-alone.spec.ts';

function lineHits(check: (file: string, line: string) => string[]): string[] {
  const found: string[] = [];
  for (const file of trackedTextFiles().filter((f) => f !== SELF)) {
    fs.readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const what of check(file, line)) found.push(`${file}:${i + 1}: ${what}`);
      });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('no tracked file names a tracker number', () => {
    expect(hits([TRACKER_NUMBER]).filter((hit) => !hit.startsWith(`${SELF}:`))).toEqual([]);
  });

  it('every section mark names a section that exists', () => {
    expect(lineHits(danglingSections)).toEqual([]);
  });

  it('every link to a page anchor names a heading of that page', () => {
    expect(lineHits(danglingAnchors)).toEqual([]);
  });

  it.each([
    ['a tracker number', ['as measured in iss', 'ue 13'].join(''), true],
    ['a numbered issue', ['see Iss', 'ue #4'].join(''), true],
    ['an issue without a number', 'the issue here is the lock', false],
  ])('the tracker check on %s', (_name, line, caught) => {
    expect(TRACKER_NUMBER.test(line)).toBe(caught);
  });

  it.each([
    [
      'a section in code instead of its anchor',
      'libs/x/src/a.ts',
      'docs/security.md §9 says so',
      ['§9 (link docs/security.md#<anchor> instead)'],
    ],
    ['a section a page lacks', 'libs/x/src/a.ts', 'docs/security.md §99 says so', ['§99 (no such section in docs/security.md)']],
    ['a bare section in code', 'libs/x/src/a.ts', 'the sender (§14.2)', ['§14.2 (names no document)']],
    ['a section of a standard', 'libs/x/src/a.ts', 'framing (RFC 9112 §6.3)', []],
    ['a section in a docs page', 'docs/runners.md', 'the trust rules of [security.md](security.md) §8', []],
    ['a markdown link with a section', 'docs/runners.md', '[security.md §8](security.md#8-llm-endpoint)', []],
    ['a list of sections after one page', 'docs/runners.md', '[security.md](security.md) (§1–§9) and §11', []],
  ])('the section check on %s', (_name, file, line, expected) => {
    expect(danglingSections(file, line)).toEqual(expected);
  });

  it.each([
    ['an anchor that exists', 'see docs/security.md#one-identity-per-agent', []],
    ['an anchor that does not', 'see docs/security.md#no-such-heading', ['docs/security.md#no-such-heading']],
  ])('the anchor check on %s', (_name, line, expected) => {
    expect(danglingAnchors('libs/x/src/a.ts', line)).toEqual(expected);
  });

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
