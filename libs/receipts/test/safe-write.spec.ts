import { lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileSafely } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

describe('writeFileSafely (inbox files, docs/messaging.md)', () => {
  let fx: TurnFixture;
  let inbox: string;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    inbox = join(fx.workspace, '.inbox');
    await writeFile(join(fx.outside, 'victim'), 'ORIGINAL');
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('creates the directory 0700 and the file 0600 with the exact content, leaving no temp file', async () => {
    await expect(writeFileSafely(inbox, '0001_a.json', '{"x":1}')).resolves.toEqual({ kind: 'ok', path: join(inbox, '0001_a.json') });
    expect((await stat(inbox)).mode & 0o777).toBe(0o700);
    expect((await stat(join(inbox, '0001_a.json'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(inbox, '0001_a.json'), 'utf8')).toBe('{"x":1}');
    expect(await readdir(inbox)).toEqual(['0001_a.json']);
  });

  it('replaces an existing file (redelivery of the same inbox file)', async () => {
    await writeFileSafely(inbox, 'f.json', 'one');
    await writeFileSafely(inbox, 'f.json', Buffer.from('two'));
    expect(await readFile(join(inbox, 'f.json'), 'utf8')).toBe('two');
  });

  it('replaces a symlink planted at the target name without following it', async () => {
    await mkdir(inbox);
    await symlink(join(fx.outside, 'victim'), join(inbox, 'f.json'));
    await expect(writeFileSafely(inbox, 'f.json', 'new')).resolves.toMatchObject({ kind: 'ok' });
    expect(await readFile(join(fx.outside, 'victim'), 'utf8')).toBe('ORIGINAL');
    expect((await lstat(join(inbox, 'f.json'))).isFile()).toBe(true);
  });

  test.each([
    ['a symlink to a directory outside', async (p: string, o: string) => symlink(o, p)],
    ['a symlink to a missing directory', async (p: string, o: string) => symlink(join(o, 'nowhere'), p)],
    ['a regular file', async (p: string) => writeFile(p, '')],
  ])('refuses an inbox that is %s with inbox_unsafe and writes nothing outside', async (_name, plant) => {
    await plant(inbox, fx.outside);
    const result = await writeFileSafely(inbox, 'f.json', 'data');
    expect(result).toMatchObject({ kind: 'refused', reason: 'inbox_unsafe' });
    expect((await readdir(fx.outside)).sort()).toEqual(['victim']);
  });

  it('refuses when the target name is a directory, and removes its temp file', async () => {
    await mkdir(join(inbox, 'f.json'), { recursive: true });
    await expect(writeFileSafely(inbox, 'f.json', 'data')).resolves.toMatchObject({ kind: 'refused', reason: 'inbox_unsafe' });
    expect(await readdir(inbox)).toEqual(['f.json']);
  });

  test.each(['', '.', '..', 'a/b', 'a\0b'])('throws invalid_file_name for %p', async (name) => {
    await expect(writeFileSafely(inbox, name, 'x')).rejects.toMatchObject({ code: 'invalid_file_name' });
  });
});
