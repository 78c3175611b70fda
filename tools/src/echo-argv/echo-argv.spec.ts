import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ECHO_ARGV_BIN, parseEchoArgvOutput } from './echo-argv';

function run(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(ECHO_ARGV_BIN, [...args], { shell: false, env, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

// The bin runs through its `#!/usr/bin/env node` line: put this node first on PATH.
const PATH_ENV = { PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` };

describe('echo-argv', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'echo-argv-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is executable (mode 0755)', () => {
    expect(statSync(ECHO_ARGV_BIN).mode & 0o777).toBe(0o755);
  });

  test.each([
    ['shell metacharacters', ['$(id)', '`id`', '; rm -rf /', '| cat', '&& true', '> /tmp/x']],
    ['quotes and backslashes', ['"', "'", '\\', '\\"', "it's"]],
    ['whitespace and newlines', [' ', '\t', 'a\nb', 'trailing\n', '  spaced  ']],
    ['globs and expansions', ['*', '?', '~', '${HOME}', '$PATH', '!!']],
    ['path-like words', ['..', '../../etc/passwd', '/abs/path', '-', '--', '--flag=value']],
    ['prototype names', ['__proto__', 'constructor', 'prototype']],
    ['unicode', ['héllo', '日本', '\u202e', '😀']],
  ])('passes %s through byte for byte', async (_name, words) => {
    const { code, stdout } = await run(words, PATH_ENV);
    expect(code).toBe(0);
    const parsed = parseEchoArgvOutput(stdout);
    expect(parsed).toEqual({ kind: 'ok', value: { argv: words, env: {} } });
  });

  it('shows only the env variables named in ECHO_ARGV_ENV_NAMES that are set', async () => {
    const env = { ...PATH_ENV, ECHO_ARGV_ENV_NAMES: 'A, B,MISSING,__proto__', A: 'x=1', B: 'line', C: 'hidden' };
    const parsed = parseEchoArgvOutput((await run([], env)).stdout);
    expect(parsed).toEqual({ kind: 'ok', value: { argv: [], env: { A: 'x=1', B: 'line' } } });
  });

  it('writes to ECHO_ARGV_OUT with an exclusive create', async () => {
    const out = join(dir, 'out.json');
    const { code, stdout } = await run(['a b'], { ...PATH_ENV, ECHO_ARGV_OUT: out });
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(parseEchoArgvOutput(await readFile(out, 'utf8'))).toEqual({ kind: 'ok', value: { argv: ['a b'], env: {} } });
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  test.each([
    ['an existing file', async (p: string) => writeFile(p, 'keep')],
    ['a planted symlink', async (p: string) => symlink(join(dir, 'target'), p)],
  ])('refuses to overwrite %s at ECHO_ARGV_OUT', async (_name, plant) => {
    const out = join(dir, 'out.json');
    await plant(out);
    const { code } = await run(['x'], { ...PATH_ENV, ECHO_ARGV_OUT: out });
    expect(code).not.toBe(0);
    await expect(readFile(join(dir, 'target'), 'utf8')).rejects.toThrow();
  });

  it('rejects output that is not the echo-argv shape', () => {
    expect(parseEchoArgvOutput('not json').kind).toBe('invalid');
    expect(parseEchoArgvOutput('{"argv":[1],"env":{}}').kind).toBe('invalid');
  });
});
