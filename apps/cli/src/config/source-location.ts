import { LineCounter, isMap, isNode, isScalar, parseDocument } from 'yaml';
import type { Node } from 'yaml';

/** A place in a config file: 1-based line and column, and that line's text. */
export interface SourceLocation {
  readonly line: number;
  readonly col: number;
  readonly text: string;
}

const segmentsOf = (dotted: string): Array<string | number> =>
  dotted === '' ? [] : dotted.split('.').map((s) => (/^[0-9]+$/.test(s) ? Number(s) : s));

function keyNode(parent: unknown, key: string): Node | undefined {
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
  return isNode(pair?.key) ? pair.key : undefined;
}

/**
 * Where `dotted` (`agents.2.network`, as an issue names it) is in a YAML or JSON text (JSON is read as YAML
 * for its positions only): the node itself, or with `key` that key inside it (an unrecognised key), or the
 * nearest existing ancestor. undefined when nothing can be placed (the root, a text that does not parse).
 */
export function locatePath(source: string, dotted: string, key?: string): SourceLocation | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, keepSourceTokens: false, uniqueKeys: false });
  if (doc.errors.length > 0) return undefined;
  const segs = segmentsOf(dotted);
  for (let n = segs.length; n > 0; n -= 1) {
    const found: unknown = doc.getIn(segs.slice(0, n), true);
    const node = n === segs.length && key !== undefined ? (keyNode(found, key) ?? found) : found;
    if (!isNode(node) || node.range === undefined || node.range === null) continue;
    const pos = lines.linePos(node.range[0]);
    const text = source.split(/\r?\n/)[pos.line - 1] ?? '';
    return { line: pos.line, col: pos.col, text };
  }
  return undefined;
}

/** Longest source line shown under an issue (a minified JSON file has one very long line). */
const SHOWN_LINE_MAX_CHARS = 120;

/** The two lines under an issue: `   12 | <line>` and a caret under the column (long lines are windowed around it). */
export function caretLines(loc: SourceLocation, indent: string): string[] {
  const start = Math.max(0, Math.min(loc.col - 1 - SHOWN_LINE_MAX_CHARS / 2, loc.text.length - SHOWN_LINE_MAX_CHARS));
  const shown = loc.text.slice(start, start + SHOWN_LINE_MAX_CHARS).replace(/\t/g, ' ');
  // eslint-disable-next-line no-control-regex -- the operator's own file, but a terminal escape in it is still neutralised
  const clean = shown.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  const gutter = String(loc.line);
  return [
    `${indent}${gutter} | ${start > 0 ? '…' : ''}${clean}`,
    `${indent}${' '.repeat(gutter.length)} | ${' '.repeat(loc.col - 1 - start + (start > 0 ? 1 : 0))}^`,
  ];
}
