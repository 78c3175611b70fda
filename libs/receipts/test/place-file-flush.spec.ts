/**
 * `placeFileUnder` renames before it flushes, so the inbox file reaches the client while its
 * fdatasync runs; `flushed` settles after. The strace case checks the order of the syscalls themselves
 * (writeFileUnder: fdatasync then rename; placeFileUnder: rename then fdatasync on the same descriptor).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { placeFileUnder } from '../src/index';
import { FIXTURES } from './support/child';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

const STRACE = ['/usr/bin/strace', '/bin/strace'].find((p) => existsSync(p));

/** The fdatasync / rename lines of `node <fixture> <fn> <root>` under strace, in order. */
async function traceWrite(strace: string, fx: TurnFixture, fn: string): Promise<string[]> {
  const log = join(fx.root, `${fn}.strace`);
  const args = ['-f', '-qq', '-e', 'trace=fdatasync,rename,renameat,renameat2', '-o', log, process.execPath];
  args.push(join(FIXTURES, 'place-file.cjs'), fn, fx.workspace);
  const child = spawn(strace, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'ok' });
  return (await readFile(log, 'utf8'))
    .split('\n')
    .filter((l) => /fdatasync\(|rename/.test(l) && !l.includes('resumed'))
    .map((l) => (l.includes('fdatasync(') ? 'fdatasync' : 'rename'));
}

describe('placeFileUnder', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('places the file (0600, exact content, no temp left) and settles flushed', async () => {
    const placed = await placeFileUnder(fx.workspace, ['.inbox'], '0001_a.json', '{"x":1}');
    if (placed.kind !== 'ok') throw new Error(placed.detail);
    expect(placed.path).toBe(join(fx.workspace, '.inbox', '0001_a.json'));
    expect(await readFile(placed.path, 'utf8')).toBe('{"x":1}');
    expect((await stat(placed.path)).mode & 0o777).toBe(0o600);
    await expect(placed.flushed).resolves.toBeUndefined();
    expect(await readdir(join(fx.workspace, '.inbox'))).toEqual(['0001_a.json']);
  });

  it('refuses a link component like writeFileUnder, with nothing to flush', async () => {
    const { symlink } = await import('node:fs/promises');
    await symlink(fx.outside, join(fx.workspace, '.inbox'));
    await expect(placeFileUnder(fx.workspace, ['.inbox'], 'f.json', 'x')).resolves.toMatchObject({
      kind: 'refused',
      reason: 'inbox_unsafe',
    });
    expect(await readdir(fx.outside)).not.toContain('f.json');
  });

  (STRACE === undefined ? it.skip : it)('flushes after the rename; writeFileUnder flushes before it', async () => {
    const strace = STRACE as string;
    expect(await traceWrite(strace, fx, 'placeFileUnder')).toEqual(['rename', 'fdatasync']);
    expect(await traceWrite(strace, fx, 'writeFileUnder')).toEqual(['fdatasync', 'rename']);
  });
});
