/**
 * The read-only skills catalogue (docs/rest-api.md `GET /api/skills[/:name]`): `.md` files under the skills
 * root (GENSWARMS_SKILLS_ROOT), relative paths only. Reads go through receipts' bounded no-follow reader.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { readUntrustedFile } from '@genswarms/receipts';
import { EngineError } from '../errors/engine-error';

/** One catalogue entry; `relative_path` is relative to the skills root, never absolute. */
export interface SkillEntry {
  readonly name: string;
  readonly relative_path: string;
  readonly category: string;
}

export type SkillRead = { kind: 'ok'; name: string; content: string; size: number } | { kind: 'invalid_name' } | { kind: 'not_found' };

export const SKILL_MAX_BYTES = 262144;
const MAX_DEPTH = 3;
const MAX_ENTRIES = 5000;
const TOP_CATEGORY = 'general';

async function realRoot(root: string): Promise<string | undefined> {
  try {
    const real = await fsp.realpath(root);
    return (await fsp.lstat(real)).isDirectory() ? real : undefined;
  } catch {
    // expected: a missing or unreadable skills root is 'no catalogue'
    return undefined;
  }
}

async function walk(rootReal: string, rel: string, depth: number, out: SkillEntry[]): Promise<void> {
  if (depth > MAX_DEPTH || out.length >= MAX_ENTRIES) return;
  // expected: an unlistable directory contributes no skills
  const entries = await fsp.readdir(path.join(rootReal, rel), { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || out.length >= MAX_ENTRIES) continue;
    const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
    // Dirent types are lstat types: symlinks are neither files nor directories here, so never followed.
    if (entry.isDirectory()) await walk(rootReal, relPath, depth + 1, out);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
      out.push({
        name: entry.name.slice(0, -3),
        relative_path: relPath,
        category: rel === '' ? TOP_CATEGORY : (rel.split('/')[0] ?? TOP_CATEGORY),
      });
    }
  }
}

/** The read-only skills catalogue: every `.md` file under the root (depth ≤ 3), symlinks and dotfiles skipped. */
export async function listSkills(root: string): Promise<SkillEntry[]> {
  const rootReal = await realRoot(root);
  if (rootReal === undefined) return [];
  const out: SkillEntry[] = [];
  await walk(rootReal, '', 0, out);
  return out;
}

/** `..`, `.`, empty, `/`, `\` and NUL can never name a skill. */
export function isSkillName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && name.length <= 255;
}

async function readIn(dirReal: string, file: string): Promise<SkillRead | undefined> {
  // expected: a skill file that cannot be read is 'missing'
  const read = await readUntrustedFile(dirReal, file, SKILL_MAX_BYTES).catch(() => ({ kind: 'missing' as const }));
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'refused') return read.reason === 'receipt_symlink' ? { kind: 'invalid_name' } : { kind: 'not_found' };
  return { kind: 'ok', name: file.replace(/\.md$/i, ''), content: read.data.toString('utf8'), size: read.data.length };
}

/**
 * Reads one skill by name (`.md` optional): `<root>/<name>.md`, `<root>/<name>`, else the catalogue
 * entry of that name. Reads go through receipts' bounded no-follow reader; a symlink → invalid_name.
 */
export async function readSkill(root: string, name: string): Promise<SkillRead> {
  if (!isSkillName(name)) return { kind: 'invalid_name' };
  const rootReal = await realRoot(root);
  if (rootReal === undefined) return { kind: 'not_found' };
  const candidates = name.toLowerCase().endsWith('.md') ? [name] : [`${name}.md`, name];
  for (const file of candidates) {
    const found = await readIn(rootReal, file);
    if (found !== undefined) return found;
  }
  const entry = (await listSkills(rootReal)).find((s) => s.name === name.replace(/\.md$/i, ''));
  if (entry === undefined) return { kind: 'not_found' };
  return (
    (await readIn(path.join(rootReal, path.dirname(entry.relative_path)), path.basename(entry.relative_path))) ?? { kind: 'not_found' }
  );
}

/** `{skills, count}` for the catalogue route. */
export async function skillsCatalogue(root: string): Promise<{ skills: SkillEntry[]; count: number }> {
  const skills = await listSkills(root);
  return { skills, count: skills.length };
}

/** One skill for the read route; 400 `invalid_name` (bad name or a symlink) / 404 `not_found` as EngineErrors. */
export async function skillOrThrow(root: string, name: string): Promise<{ name: string; content: string; size: number }> {
  const read = await readSkill(root, name);
  if (read.kind === 'invalid_name') throw new EngineError('invalid_name', 'Not a valid skill name.');
  if (read.kind === 'not_found') throw new EngineError('not_found', 'No such skill.');
  return { name: read.name, content: read.content, size: read.size };
}
