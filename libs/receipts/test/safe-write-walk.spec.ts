import { spawnSync } from 'node:child_process';
import { chown, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileSafely, writeFileUnder } from '../src/index';
import type { Harness } from './support/child';
import { startHarness } from './support/child';
import { treeOf } from './support/tree';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

const MKFIFO = '/usr/bin/mkfifo';
const FLIP_WRITES = 400;
const FLIP_WRITES_MAX = 20_000;

function mkfifo(path: string): void {
  const r = spawnSync(MKFIFO, [path], { shell: false, env: {} });
  if (r.status !== 0) throw new Error(`mkfifo failed: ${String(r.stderr)}`);
}

describe('writeFileUnder (walks every directory from the trusted workspace, docs/messaging.md)', () => {
  let fx: TurnFixture;
  let ws: string;
  let outsideBefore: string[];
  beforeEach(async () => {
    fx = await makeTurnFixture();
    ws = fx.workspace;
    await writeFile(join(fx.outside, 'victim'), 'ORIGINAL');
    await mkdir(join(fx.outside, 'replies'));
    outsideBefore = await treeOf(fx.outside);
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('creates every missing component 0700 inside the root and the file 0600 with the exact content', async () => {
    const result = await writeFileUnder(ws, ['.inbox', 'replies'], 'c1.json', '{"ok":true}');
    expect(result).toEqual({ kind: 'ok', path: join(ws, '.inbox', 'replies', 'c1.json') });
    expect((await stat(join(ws, '.inbox'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(ws, '.inbox', 'replies'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(ws, '.inbox', 'replies', 'c1.json'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(ws, '.inbox', 'replies', 'c1.json'), 'utf8')).toBe('{"ok":true}');
    expect(await readdir(join(ws, '.inbox', 'replies'))).toEqual(['c1.json']);
    expect(await treeOf(fx.outside)).toEqual(outsideBefore);
  });

  it('writes directly into the root with no components, and replaces an existing file', async () => {
    await writeFileUnder(ws, [], 'f.json', 'one');
    await expect(writeFileUnder(ws, [], 'f.json', Buffer.from('two'))).resolves.toEqual({ kind: 'ok', path: join(ws, 'f.json') });
    expect(await readFile(join(ws, 'f.json'), 'utf8')).toBe('two');
  });

  it('replaces a symlink planted at the target name without following it', async () => {
    await mkdir(join(ws, '.inbox', 'replies'), { recursive: true });
    await symlink(join(fx.outside, 'victim'), join(ws, '.inbox', 'replies', 'c.json'));
    await expect(writeFileUnder(ws, ['.inbox', 'replies'], 'c.json', 'new')).resolves.toMatchObject({ kind: 'ok' });
    expect(await readFile(join(fx.outside, 'victim'), 'utf8')).toBe('ORIGINAL');
    expect((await lstat(join(ws, '.inbox', 'replies', 'c.json'))).isFile()).toBe(true);
  });

  test.each<[string, (ws: string, outside: string) => Promise<void>]>([
    ['the intermediate .inbox is a symlink to an outside dir', (w, o) => symlink(o, join(w, '.inbox'))],
    ['the intermediate .inbox is a symlink to a missing outside dir', (w, o) => symlink(join(o, 'nowhere'), join(w, '.inbox'))],
    ['the intermediate .inbox is a symlink to an outside file', (w, o) => symlink(join(o, 'victim'), join(w, '.inbox'))],
    ['the intermediate .inbox is a relative symlink climbing out (../outside)', (w) => symlink('../outside', join(w, '.inbox'))],
    [
      'the final replies dir is a symlink to an outside dir',
      async (w, o) => {
        await mkdir(join(w, '.inbox'));
        await symlink(join(o, 'replies'), join(w, '.inbox', 'replies'));
      },
    ],
    [
      'the final replies dir is a symlink to a missing outside dir',
      async (w, o) => {
        await mkdir(join(w, '.inbox'));
        await symlink(join(o, 'made-by-host'), join(w, '.inbox', 'replies'));
      },
    ],
    ['the intermediate .inbox is a regular file', (w) => writeFile(join(w, '.inbox'), '')],
    [
      'the final replies is a regular file',
      async (w) => {
        await mkdir(join(w, '.inbox'));
        await writeFile(join(w, '.inbox', 'replies'), '');
      },
    ],
    ['the intermediate .inbox is a FIFO with no writer', async (w) => mkfifo(join(w, '.inbox'))],
    [
      'the final replies is a FIFO with no writer',
      async (w) => {
        await mkdir(join(w, '.inbox'));
        mkfifo(join(w, '.inbox', 'replies'));
      },
    ],
    [
      'the intermediate .inbox is owned by another user',
      async (w) => {
        await mkdir(join(w, '.inbox'));
        await chown(join(w, '.inbox'), 54321, 54321);
      },
    ],
  ])('refuses with inbox_unsafe when %s, and nothing appears outside', async (_name, plant) => {
    await plant(ws, fx.outside);
    const wsBefore = await treeOf(ws);
    const result = await writeFileUnder(ws, ['.inbox', 'replies'], 'c.json', 'data');
    expect(result).toMatchObject({ kind: 'refused', reason: 'inbox_unsafe' });
    expect(await treeOf(fx.outside)).toEqual(outsideBefore);
    expect(await treeOf(ws)).toEqual(wsBefore);
  });

  test.each<[string, readonly string[]]>([
    ['..', ['..']],
    ['.. below a real dir', ['.inbox', '..', '..', 'outside']],
    ['.', ['.']],
    ['an absolute component', ['/tmp']],
    ['a component with a slash', ['.inbox/replies']],
    ['a NUL byte', ['.in\0box']],
    ['an empty component', ['']],
    ['a 256-byte component', ['x'.repeat(256)]],
    ['17 components', Array.from({ length: 17 }, () => 'd')],
  ])('throws invalid_path for %s and creates nothing anywhere', async (_name, components) => {
    await mkdir(join(ws, '.inbox'));
    const rootBefore = await treeOf(fx.root);
    await expect(writeFileUnder(ws, components, 'c.json', 'x')).rejects.toMatchObject({ code: 'invalid_path' });
    expect(await treeOf(fx.root)).toEqual(rootBefore);
  });

  test.each(['', '..', 'a/b', 'a\0b'])('throws invalid_file_name for the file name %p', async (name) => {
    await expect(writeFileUnder(ws, ['.inbox'], name, 'x')).rejects.toMatchObject({ code: 'invalid_file_name' });
  });

  test.each(['relative/ws', '/tmp/../etc', '/tmp/ws/', '/tmp/\0ws'])('throws invalid_path for the root %p', async (root) => {
    await expect(writeFileUnder(root, ['.inbox'], 'c.json', 'x')).rejects.toMatchObject({ code: 'invalid_path' });
  });

  it('refuses a root that is itself a symlink (the caller must pass the real path)', async () => {
    const linked = join(fx.root, 'ws-link');
    await symlink(ws, linked);
    await expect(writeFileUnder(linked, ['.inbox'], 'c.json', 'x')).resolves.toMatchObject({ kind: 'refused', reason: 'inbox_unsafe' });
    expect(await treeOf(ws)).not.toContain('.inbox');
  });
});

describe('writes below the workspace while the agent flips .inbox to an outside symlink', () => {
  let fx: TurnFixture;
  let harness: Harness | undefined;
  beforeEach(async () => {
    fx = await makeTurnFixture();
    await mkdir(join(fx.workspace, '.inbox', 'replies'), { recursive: true });
  });
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    await fx.cleanup();
  });

  test.each<[string, (ws: string, i: number) => Promise<{ kind: string }>]>([
    ['writeFileUnder(ws, [.inbox, replies])', (ws, i) => writeFileUnder(ws, ['.inbox', 'replies'], `c${i}.json`, 'x')],
    [
      'writeFileSafely(ws/.inbox/replies) (the engine ask path)',
      (ws, i) => writeFileSafely(join(ws, '.inbox', 'replies'), `c${i}.json`, 'x'),
    ],
    ['writeFileSafely(ws/.inbox) (the engine inbox path)', (ws, i) => writeFileSafely(join(ws, '.inbox'), `c${i}.json`, 'x')],
  ])('%s never creates a directory or file outside the workspace', async (_name, write) => {
    harness = await startHarness('inbox-flip-harness.cjs', [join(fx.workspace, '.inbox'), fx.outside]);
    const kinds = new Map<string, number>();
    // at least FLIP_WRITES writes, and on until the agent has swapped .inbox > 100 times meanwhile (a
    // loaded machine schedules the flipper less often: the race must really have happened)
    const swappedSoFar = (): number => Number([...harness!.output().matchAll(/swapped (\d+)/g)].pop()?.[1] ?? 0);
    for (let i = 0; i < FLIP_WRITES_MAX && (i < FLIP_WRITES || swappedSoFar() <= 100); i++) {
      const kind = (await write(fx.workspace, i)).kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    const swaps = Number(/swaps (\d+)/.exec(await harness.stop())?.[1]);
    harness = undefined;
    expect(await treeOf(fx.outside)).toEqual([]);
    expect(swaps).toBeGreaterThan(100);
    expect([...kinds.keys()].every((k) => k === 'ok' || k === 'refused')).toBe(true);
  });
});
