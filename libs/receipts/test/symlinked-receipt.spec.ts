import { mkdir, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readTurnReceipt } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture, okDone, plantEvilReceipt } from './support/turn-fixture';

describe('readTurnReceipt refuses planted symlinks', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  test.each([
    ['done.json -> /etc/passwd', 'done.json', () => '/etc/passwd'],
    ['done.json -> /dev/zero', 'done.json', () => '/dev/zero'],
    ['done.json -> a well-formed receipt outside', 'done.json', () => join(fx.outside, 'done.json')],
    ['done.json -> a dangling target', 'done.json', () => join(fx.outside, 'nothing-here')],
    ['reply.md -> /etc/shadow', 'reply.md', () => '/etc/shadow'],
    ['reply.md -> an evil reply outside', 'reply.md', () => join(fx.outside, 'reply.md')],
  ])('refuses %s as receipt_symlink', async (_name, file, target) => {
    await plantEvilReceipt(fx.outside, fx.turnId);
    if (file === 'reply.md') await fx.writeDone(okDone(fx.turnId));
    else await fx.writeReply('genuine');
    await symlink(target(), join(fx.turnDir, file));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({ kind: 'refused', reason: 'receipt_symlink', file });
  });

  test.each([
    ['.genswarms', (w: string) => join(w, '.genswarms')],
    ['turns', (w: string) => join(w, '.genswarms', 'turns')],
    ['the turn directory', (w: string) => join(w, '.genswarms', 'turns', fx.turnId)],
  ])('refuses a symlinked %s (pointing at a well-formed receipt) as receipt_symlink', async (_name, pathOf) => {
    // Build an evil tree mirroring the real one, move the real component aside, link to the evil copy.
    const evilTurn = join(fx.outside, 'evil', '.genswarms', 'turns', fx.turnId);
    await plantEvilReceipt(evilTurn, fx.turnId);
    const component = pathOf(fx.workspace);
    const depth = component.slice(fx.workspace.length).split('/').filter(Boolean).length;
    const evilComponent = join(fx.outside, 'evil', ...component.slice(fx.workspace.length).split('/').filter(Boolean));
    await rename(component, join(fx.root, `aside-${depth}`));
    await symlink(evilComponent, component);
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toEqual({
      kind: 'refused',
      reason: 'receipt_symlink',
      file: 'directory',
    });
  });

  it('refuses a symlinked .genswarms even when it points back inside the workspace', async () => {
    const inside = join(fx.workspace, 'copy');
    await mkdir(inside);
    await rename(join(fx.workspace, '.genswarms'), join(inside, '.genswarms'));
    await symlink(join(inside, '.genswarms'), join(fx.workspace, '.genswarms'));
    await expect(readTurnReceipt(fx.workspace, fx.turnId)).resolves.toMatchObject({ kind: 'refused', reason: 'receipt_symlink' });
  });
});
