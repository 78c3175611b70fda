import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { EngineError } from '../errors/engine-error';
import { isSkillName, listSkills, readSkill, skillOrThrow, skillsCatalogue, SKILL_MAX_BYTES } from './skills-catalogue';

let dir: string;
let root: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(os.tmpdir(), 'gs-skills-')));
  root = join(dir, 'skills');
  mkdirSync(join(root, 'web', 'deep', 'er', 'est'), { recursive: true });
  writeFileSync(join(root, 'top.md'), '# top');
  writeFileSync(join(root, 'web', 'notes.md'), '# notes');
  writeFileSync(join(root, 'web', 'deep', 'er', 'three.md'), '3');
  writeFileSync(join(root, 'web', 'deep', 'er', 'est', 'four.md'), '4');
  writeFileSync(join(root, 'not-a-skill.txt'), 'x');
  writeFileSync(join(root, '.hidden.md'), 'hidden');
  writeFileSync(join(root, 'big.md'), Buffer.alloc(SKILL_MAX_BYTES + 1, 0x61));
  writeFileSync(join(dir, 'secret.md'), 'SECRET');
  symlinkSync(join(dir, 'secret.md'), join(root, 'leak.md'));
  symlinkSync(dir, join(root, 'outdir'));
  spawnSync('/usr/bin/mkfifo', [join(root, 'fifo.md')], { shell: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('listSkills', () => {
  it('lists .md files with relative paths and categories; no symlinks, dotfiles, FIFOs or files deeper than 3', async () => {
    expect(await listSkills(root)).toEqual([
      { name: 'big', relative_path: 'big.md', category: 'general' },
      { name: 'top', relative_path: 'top.md', category: 'general' },
      { name: 'three', relative_path: 'web/deep/er/three.md', category: 'web' },
      { name: 'notes', relative_path: 'web/notes.md', category: 'web' },
    ]);
    expect(JSON.stringify(await listSkills(root))).not.toContain(dir);
  });

  it('a missing root or a root that is a file is an empty catalogue', async () => {
    expect(await skillsCatalogue(join(dir, 'absent'))).toEqual({ skills: [], count: 0 });
    expect(await listSkills(join(root, 'top.md'))).toEqual([]);
  });
});

describe('readSkill', () => {
  it('reads by name, .md optional, also inside a category', async () => {
    expect(await readSkill(root, 'top')).toEqual({ kind: 'ok', name: 'top', content: '# top', size: 5 });
    expect(await readSkill(root, 'top.md')).toEqual({ kind: 'ok', name: 'top', content: '# top', size: 5 });
    expect(await readSkill(root, 'notes')).toEqual({ kind: 'ok', name: 'notes', content: '# notes', size: 7 });
  });

  test.each([[''], ['.'], ['..'], ['a/b'], ['../secret'], ['..\\x'], ['x\0y'], ['/etc/passwd'], ['leak'], ['leak.md']])(
    '%j → invalid_name',
    async (name) => {
      expect(await readSkill(root, name)).toEqual({ kind: 'invalid_name' });
    },
  );

  test.each([['missing'], ['big'], ['fifo'], ['__proto__'], ['constructor'], ['$(id)'], ['a;b']])('%j → not_found', async (name) => {
    expect(await readSkill(root, name)).toEqual({ kind: 'not_found' });
  });

  it('skillOrThrow maps refusals to EngineErrors (400 invalid_name, 404 not_found)', async () => {
    await expect(skillOrThrow(root, '..')).rejects.toMatchObject({ code: 'invalid_name', status: 400 });
    await expect(skillOrThrow(root, 'missing')).rejects.toBeInstanceOf(EngineError);
    await expect(skillOrThrow(root, 'missing')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(await skillOrThrow(root, 'top')).toEqual({ name: 'top', content: '# top', size: 5 });
  });

  it('isSkillName bounds length and refuses separators', () => {
    expect(isSkillName('a'.repeat(255))).toBe(true);
    expect(isSkillName('a'.repeat(256))).toBe(false);
  });
});
