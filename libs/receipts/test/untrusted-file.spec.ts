import { spawnSync } from 'node:child_process';
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readUntrustedFile } from '../src/index';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

describe('readUntrustedFile (outbox files)', () => {
  let fx: TurnFixture;
  let outbox: string;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    outbox = join(fx.workspace, '.outbox');
    await mkdir(outbox);
    await writeFile(join(fx.outside, 'secret.json'), '{"to":"x","content":"SECRET"}');
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('reads a regular file within the bound', async () => {
    await writeFile(join(outbox, 'a.json'), '{"broadcast":true,"content":"hi"}');
    await expect(readUntrustedFile(outbox, 'a.json', 1024)).resolves.toEqual({
      kind: 'ok',
      data: Buffer.from('{"broadcast":true,"content":"hi"}'),
    });
  });

  it('reports a missing file and a missing directory as missing', async () => {
    await expect(readUntrustedFile(outbox, 'none.json', 1024)).resolves.toEqual({ kind: 'missing' });
    await expect(readUntrustedFile(join(fx.workspace, 'nope'), 'a.json', 1024)).resolves.toEqual({ kind: 'missing' });
  });

  test.each([
    ['a symlink to a file outside', async (p: string, o: string) => symlink(join(o, 'secret.json'), p), 'receipt_symlink'],
    ['a symlink to /etc/passwd', async (p: string) => symlink('/etc/passwd', p), 'receipt_symlink'],
    ['a hard link to a file outside', async (p: string, o: string) => link(join(o, 'secret.json'), p), 'receipt_not_regular'],
    ['a directory', async (p: string) => void (await mkdir(p)), 'receipt_not_regular'],
    ['a FIFO with no writer', async (p: string) => void spawnSync('/usr/bin/mkfifo', [p], { shell: false }), 'receipt_not_regular'],
    ['a file over the bound', async (p: string) => writeFile(p, 'x'.repeat(1025)), 'receipt_too_large'],
  ])('refuses %s', async (_name, plant, reason) => {
    await plant(join(outbox, 'm.json'), fx.outside);
    await expect(readUntrustedFile(outbox, 'm.json', 1024)).resolves.toEqual({ kind: 'refused', reason });
  });

  it('refuses an outbox directory that is a symlink', async () => {
    await writeFile(join(fx.outside, 'a.json'), '{}');
    const linked = join(fx.workspace, '.outbox2');
    await symlink(fx.outside, linked);
    await expect(readUntrustedFile(linked, 'a.json', 1024)).resolves.toEqual({ kind: 'refused', reason: 'receipt_symlink' });
  });

  test.each(['', '.', '..', 'a/b', '../secret.json', 'a\0b', '/etc/passwd'])('throws invalid_file_name for %p', async (name) => {
    await expect(readUntrustedFile(outbox, name, 1024)).rejects.toMatchObject({ name: 'ReceiptError', code: 'invalid_file_name' });
  });

  test.each([[-1], [0.5], [Number.POSITIVE_INFINITY]])('throws invalid_option for maxBytes %p', async (max) => {
    await expect(readUntrustedFile(outbox, 'a.json', max)).rejects.toMatchObject({ code: 'invalid_option' });
  });
});
