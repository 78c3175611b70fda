import { chown, lstat, mkdir, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newTurnId, prepareTurnDir } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

describe('prepareTurnDir', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await rm(join(fx.workspace, '.genswarms'), { recursive: true });
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('creates .genswarms, turns and the turn directory with mode 0700', async () => {
    const id = newTurnId();
    const result = await prepareTurnDir(fx.workspace, id);
    expect(result).toEqual({ kind: 'ok', dir: join(fx.workspace, '.genswarms', 'turns', id) });
    for (const p of ['.genswarms', '.genswarms/turns', `.genswarms/turns/${id}`]) {
      expect((await stat(join(fx.workspace, p))).mode & 0o777).toBe(0o700);
    }
  });

  it('keeps an existing turn directory and its files (a resumed turn)', async () => {
    const id = newTurnId();
    await prepareTurnDir(fx.workspace, id);
    await writeFile(join(fx.workspace, '.genswarms', 'turns', id, 'reply.md'), 'kept');
    await expect(prepareTurnDir(fx.workspace, id)).resolves.toMatchObject({ kind: 'ok' });
    expect(await readdir(join(fx.workspace, '.genswarms', 'turns', id))).toEqual(['reply.md']);
  });

  test.each([
    ['.genswarms', ''],
    ['turns', '.genswarms'],
  ])('refuses a symlinked %s and creates nothing through it', async (name, parent) => {
    await mkdir(join(fx.workspace, parent), { recursive: true });
    await symlink(fx.outside, join(fx.workspace, parent, name));
    await expect(prepareTurnDir(fx.workspace, newTurnId())).resolves.toEqual({ kind: 'refused', reason: 'receipt_symlink' });
    expect(await readdir(fx.outside)).toEqual([]);
  });

  it('refuses a turns link to a missing outside directory and creates nothing there', async () => {
    await mkdir(join(fx.workspace, '.genswarms'));
    await symlink(join(fx.outside, 'made-by-host'), join(fx.workspace, '.genswarms', 'turns'));
    await expect(prepareTurnDir(fx.workspace, newTurnId())).resolves.toEqual({ kind: 'refused', reason: 'receipt_symlink' });
    expect(await readdir(fx.outside)).toEqual([]);
  });

  it('refuses a .genswarms owned by another user (the agent cannot hand the host its own directory)', async () => {
    await mkdir(join(fx.workspace, '.genswarms'));
    await chown(join(fx.workspace, '.genswarms'), 54321, 54321);
    await expect(prepareTurnDir(fx.workspace, newTurnId())).resolves.toEqual({ kind: 'refused', reason: 'receipt_not_regular' });
    expect(await readdir(join(fx.workspace, '.genswarms'))).toEqual([]);
  });

  (process.getuid?.() === 0 ? it : it.skip)(
    'as root, hands the directories it creates to the owner of an agent-owned workspace',
    async () => {
      await chown(fx.workspace, 4711, 4712);
      const id = newTurnId();
      await expect(prepareTurnDir(fx.workspace, id)).resolves.toMatchObject({ kind: 'ok' });
      for (const p of ['.genswarms', '.genswarms/turns', `.genswarms/turns/${id}`]) {
        expect(await stat(join(fx.workspace, p))).toMatchObject({ uid: 4711, gid: 4712 });
      }
    },
  );

  it('refuses a symlinked turn directory', async () => {
    const id = newTurnId();
    await mkdir(join(fx.workspace, '.genswarms', 'turns'), { recursive: true });
    await symlink(fx.outside, join(fx.workspace, '.genswarms', 'turns', id));
    await expect(prepareTurnDir(fx.workspace, id)).resolves.toEqual({ kind: 'refused', reason: 'receipt_symlink' });
  });

  test.each(['.genswarms', '.genswarms/turns'])('refuses a regular file planted as %s', async (component) => {
    await mkdir(join(fx.workspace, component, '..'), { recursive: true });
    await writeFile(join(fx.workspace, component), '');
    await expect(prepareTurnDir(fx.workspace, newTurnId())).resolves.toEqual({ kind: 'refused', reason: 'receipt_not_regular' });
  });

  it('never creates the workspace itself', async () => {
    const missing = join(fx.root, 'no-such-workspace');
    await expect(prepareTurnDir(missing, newTurnId())).resolves.toEqual({ kind: 'refused', reason: 'receipt_not_regular' });
    await expect(lstat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test.each(['relative/ws', '/a/../b', '/a/b/', '/a\0b'])('throws invalid_path for workspace %p', async (ws) => {
    await expect(prepareTurnDir(ws, newTurnId())).rejects.toMatchObject({ code: 'invalid_path' });
  });
});
