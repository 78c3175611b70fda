import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir, LAUNCHER_PATH, writeEnvFile } from '../src/index';
import { ECHO_ARGV, makeSandboxDirs, waitForFile } from './support';

const UID = process.getuid?.() ?? 0;

function runLauncher(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(LAUNCHER_PATH, args, { shell: false, env: {}, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('private state dirs and env files', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(() => dirs.cleanup());

  it('creates a state dir 0700 with its parents', async () => {
    const dir = path.join(dirs.home, 'state', 's', 'a');
    await ensurePrivateDir(dir, UID);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.dirname(dir)).mode & 0o777).toBe(0o700);
  });

  it.each([
    [
      'a symlink',
      (p: string, root: string) => {
        mkdirSync(path.join(root, 't'), { mode: 0o700 });
        symlinkSync(path.join(root, 't'), p);
      },
    ],
    [
      'group/world-accessible',
      (p: string) => {
        mkdirSync(p);
        chmodSync(p, 0o755);
      },
    ],
    [
      'owned by another user',
      (p: string) => {
        mkdirSync(p, { mode: 0o700 });
        chownSync(p, 4242, 4242);
      },
    ],
    ['a regular file', (p: string) => writeFileSync(p, 'x')],
  ])('refuses a state dir that is %s (state_dir_unsafe)', async (_name, make) => {
    const p = path.join(dirs.home, 'sd');
    make(p, dirs.root);
    await expect(ensurePrivateDir(p, UID)).rejects.toMatchObject({ code: 'state_dir_unsafe' });
  });

  it('writes the env file 0600 as KEY=VALUE lines in a 0700 .genswarms dir', async () => {
    const sd = path.join(dirs.home, 'sd');
    await ensurePrivateDir(sd, UID);
    const file = await writeEnvFile(sd, { A: '1', B: 'x=y z' }, UID);
    expect(file).toBe(path.join(sd, '.genswarms', 'env'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toBe('A=1\nB=x=y z\n');
  });

  it('replaces a stale env file planted as a symlink without following it', async () => {
    const sd = path.join(dirs.home, 'sd');
    await ensurePrivateDir(path.join(sd, '.genswarms'), UID);
    const victim = path.join(dirs.root, 'victim');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, path.join(sd, '.genswarms', 'env'));
    await writeEnvFile(sd, { A: '1' }, UID);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(path.join(sd, '.genswarms', 'env')).isFile()).toBe(true);
  });

  it.each([
    ['a newline in a value', { A: 'x\nB=evil' }],
    ['a NUL in a value', { A: 'x\0y' }],
    ['an invalid name', { 'A-B': 'x' }],
    ['a name with =', { 'A=B': 'x' }],
  ])('refuses %s', async (_name, env) => {
    await expect(writeEnvFile(path.join(dirs.home, 'sd'), env, UID)).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

describe('the constant launcher genswarms-launch', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(() => dirs.cleanup());

  it('is an executable POSIX sh script without eval', () => {
    expect(statSync(LAUNCHER_PATH).mode & 0o777).toBe(0o755);
    const text = readFileSync(LAUNCHER_PATH, 'utf8');
    expect(text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(text).not.toMatch(/\beval\b/);
  });

  it('exports hostile values byte-for-byte, deletes the env file, execs the argv, and runs nothing else', async () => {
    const marker = path.join(dirs.root, 'pwned');
    const out = path.join(dirs.root, 'out.json');
    const values: Record<string, string> = {
      V_SUBST: `$(touch ${marker})`,
      V_TICKS: `\`touch ${marker}\``,
      V_QUOTES: `'"both"' and \\"`,
      V_BACKSLASH: 'a\\nb\\\\c\\',
      V_EQUALS: 'a=b==c',
      V_SPACES: '  lead and trail  ',
      V_SEMI: `x; touch ${marker}; echo`,
      V_EMPTY: '',
      V_UNICODE: 'ü ✓ \t tab',
      ECHO_ARGV_OUT: out,
      PATH: '/usr/local/bin:/usr/bin:/bin',
    };
    const sd = path.join(dirs.home, 'sd');
    const envFile = await writeEnvFile(sd, values, UID);
    const { code } = await runLauncher([envFile, process.execPath, ECHO_ARGV, '$(touch x)', '-n']);
    expect(code).toBe(0);
    const report = JSON.parse(await waitForFile(out)) as { argv: string[]; env: Record<string, string> };
    for (const [k, v] of Object.entries(values)) expect(report.env[k]).toBe(v);
    expect(report.argv).toEqual(['$(touch x)', '-n']);
    expect(existsSync(envFile)).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('fails closed (95) when the env file is missing', async () => {
    const { code } = await runLauncher([path.join(dirs.root, 'nope'), process.execPath, ECHO_ARGV]);
    expect(code).toBe(95);
  });

  it('fails closed (95) on a malformed env line', async () => {
    const file = path.join(dirs.root, 'env');
    writeFileSync(file, 'not a line\n', { mode: 0o600 });
    const { code } = await runLauncher([file, process.execPath, ECHO_ARGV]);
    expect(code).toBe(95);
  });

  it('refuses to run without a command (96)', async () => {
    const { code } = await runLauncher([path.join(dirs.root, 'env')]);
    expect(code).toBe(96);
  });
});
