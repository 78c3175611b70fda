import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { buildXargsArgv, computeManifestBudget, writeArgvManifest, XARGS_MAX_BYTES } from '../src/index';
import { ECHO_ARGV, hostileWords, makeSandboxDirs, waitForFile } from './support';

const XARGS = '/usr/bin/xargs';

function run(argv: readonly string[], env: Record<string, string>): Promise<number | null> {
  const [file, ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(file as string, args, { shell: false, env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

const suite = existsSync(XARGS) ? describe : describe.skip;
if (!existsSync(XARGS)) console.warn('SKIPPED manifest-xargs: GNU xargs is not installed at /usr/bin/xargs');

suite('NUL manifests replayed by GNU xargs', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(() => dirs.cleanup());

  it('computes S as the sum of byte lengths + 1 over entry and words', () => {
    expect(computeManifestBudget('/bin/e', ['a', 'ü', ''])).toEqual({ count: 3, size: 7 + 2 + 3 + 1 });
  });

  it('builds the exact xargs tuple', () => {
    expect(buildXargsArgv(XARGS, '/m/x.argv', '/bin/e', ['a', 'bc'])).toEqual([
      XARGS,
      '-0',
      '-r',
      '-x',
      '-n',
      '2',
      '-s',
      String(7 + 2 + 3),
      '-a',
      '/m/x.argv',
      '--',
      '/bin/e',
    ]);
  });

  it.each([
    ['a NUL word', ['ok', 'a\0b'], 'invalid_argv'],
    ['an empty word', ['ok', ''], 'invalid_argv'],
    ['an over-budget vector', Array.from({ length: 2 }, () => 'x'.repeat(70_000)), 'launch_too_large'],
  ])('refuses %s', (_name, words, code) => {
    expect(() => buildXargsArgv(XARGS, '/m/x.argv', '/bin/e', words)).toThrow(expect.objectContaining({ code }));
  });

  it('writes a 0400 manifest in a 0700 directory, every word NUL-terminated', async () => {
    const dir = path.join(dirs.home, 'manifests', 's', 'a');
    const { path: file, count } = await writeArgvManifest(dir, 'launch-1', ['a', 'b c', 'ü']);
    expect(count).toBe(3);
    expect(statSync(file).mode & 0o777).toBe(0o400);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file)).toEqual(Buffer.from('a\0b c\0ü\0', 'utf8'));
    await expect(writeArgvManifest(dir, 'launch-1', ['a'])).rejects.toThrow(); // exclusive create
  });

  it('refuses a manifest directory that is a symlink', async () => {
    mkdirSync(path.join(dirs.root, 'elsewhere'), { mode: 0o700 });
    mkdirSync(path.join(dirs.home, 'manifests'), { mode: 0o700 });
    symlinkSync(path.join(dirs.root, 'elsewhere'), path.join(dirs.home, 'manifests', 's'));
    await expect(writeArgvManifest(path.join(dirs.home, 'manifests', 's', 'a'), 'l1', ['a'])).rejects.toMatchObject({
      code: 'state_dir_unsafe',
    });
    expect(lstatSync(path.join(dirs.root, 'elsewhere')).isDirectory()).toBe(true);
    expect(existsSync(path.join(dirs.root, 'elsewhere', 'a'))).toBe(false);
  });

  it('replays hostile words byte-for-byte in exactly one run, and nothing executes', async () => {
    const marker = path.join(dirs.root, `pwned-${process.pid}`);
    const words = [ECHO_ARGV, ...hostileWords(marker)];
    const out = path.join(dirs.root, 'out.json');
    const { path: file } = await writeArgvManifest(path.join(dirs.home, 'manifests', 's', 'a'), 'l1', words);
    const code = await run(buildXargsArgv(XARGS, file, process.execPath, words), { ECHO_ARGV_OUT: out });
    expect(code).toBe(0);
    expect(JSON.parse(await waitForFile(out)).argv).toEqual(words.slice(1));
    expect(existsSync(marker)).toBe(false);
  });

  it('runs a vector just under the cap (5,000 words, ~127 KiB) exactly once with every word', async () => {
    const words = [ECHO_ARGV, ...Array.from({ length: 5000 }, (_, i) => `w${String(i).padStart(4, '0')}-${'y'.repeat(19)}`)];
    const budget = computeManifestBudget(process.execPath, words);
    expect(budget.size).toBeGreaterThan(125 * 1024);
    expect(budget.size).toBeLessThanOrEqual(XARGS_MAX_BYTES);
    const out = path.join(dirs.root, 'runs');
    mkdirSync(out);
    const { path: file } = await writeArgvManifest(path.join(dirs.home, 'm'), 'l2', words);
    // Each run writes its own file (named by its pid): a split would leave two.
    const code = await run(buildXargsArgv(XARGS, file, process.execPath, words), { ECHO_ARGV_DIR: out });
    expect(code).toBe(0);
    const runs = readdirSync(out);
    expect(runs).toHaveLength(1);
    expect(JSON.parse(readFileSync(path.join(out, runs[0] as string), 'utf8')).argv).toEqual(words.slice(1));
  });

  it('refuses a vector over 128 KiB, and real xargs never runs an over-budget manifest at all', async () => {
    const words = [ECHO_ARGV, ...Array.from({ length: 6000 }, (_, i) => `w${i}-${'z'.repeat(20)}`)];
    expect(() => computeManifestBudget(process.execPath, words)).toThrow(expect.objectContaining({ code: 'launch_too_large' }));
    const { path: file } = await writeArgvManifest(path.join(dirs.home, 'm'), 'l3', words);
    const marker = path.join(dirs.root, 'ran.json');
    const argv = [XARGS, '-0', '-r', '-x', '-n', String(words.length), '-s', String(XARGS_MAX_BYTES), '-a', file, '--', process.execPath];
    const code = await run(argv, { ECHO_ARGV_OUT: marker });
    expect(code).not.toBe(0);
    expect(existsSync(marker)).toBe(false);
  });
});
