import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../build-once/build-once';

/** Drops every parenthesised aside (nested too): detail-field names live there, codes do not. */
function withoutAsides(text: string): string {
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth += 1;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/**
 * The error codes docs/rest-api.md documents in its "Errors" table (status -> codes), read from the page
 * itself so a fuzz target fails when the server answers a code the page does not list.
 */
export function documentedErrorCodes(page = join(REPO_ROOT, 'docs', 'rest-api.md')): ReadonlySet<string> {
  const text = readFileSync(page, 'utf8');
  const start = text.indexOf('| Status | Codes |');
  const end = text.indexOf('\n## ', start);
  if (start < 0 || end < 0) throw new Error('docs/rest-api.md has no "| Status | Codes |" table');
  const codes = new Set<string>();
  for (const row of text.slice(start, end).split('\n').slice(2)) {
    const codesCell = row.split('|')[2] ?? '';
    for (const m of withoutAsides(codesCell).matchAll(/`([a-z][a-z0-9_]*)`/g)) codes.add(m[1] as string);
  }
  return codes;
}
