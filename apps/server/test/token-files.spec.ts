import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMain } from '../src/index';
import { readTokenFiles, TOKEN_FILE_MAX_BYTES } from '../src/boot/token-files';
import { captureStream, tempDir } from './support/harness';

const dir = tempDir('gs-tokfile-');
afterAll(() => dir.cleanup());
const at = (name: string): string => join(dir.path, name);

beforeAll(() => {
  writeFileSync(at('token'), 'file-token-SECRET\n', { mode: 0o400 });
  writeFileSync(at('crlf'), 'crlf-token\r\n', { mode: 0o400 });
  writeFileSync(at('empty'), '\n', { mode: 0o400 });
  writeFileSync(at('big'), 'x'.repeat(TOKEN_FILE_MAX_BYTES + 1), { mode: 0o400 });
  writeFileSync(at('linked'), 'linked-token', { mode: 0o400 });
  linkSync(at('linked'), at('hardlink'));
  symlinkSync(at('token'), at('symlink'));
  mkdirSync(at('adir'));
  execFileSync('/usr/bin/mkfifo', [at('fifo')], { shell: false });
});

describe('GENSWARMS_API_TOKEN_FILE and GENSWARMS_CONFIG_API_TOKEN_FILE', () => {
  it('read the token from the file, one trailing newline dropped', async () => {
    expect(await readTokenFiles({ GENSWARMS_API_TOKEN_FILE: at('token'), GENSWARMS_CONFIG_API_TOKEN_FILE: at('crlf') })).toEqual({
      kind: 'ok',
      tokens: { GENSWARMS_API_TOKEN: 'file-token-SECRET', GENSWARMS_CONFIG_API_TOKEN: 'crlf-token' },
    });
    expect(await readTokenFiles({ GENSWARMS_API_TOKEN_FILE: '  ' })).toEqual({ kind: 'ok', tokens: {} });
  });

  test.each<[string, Record<string, string>, string]>([
    ['a relative path', { GENSWARMS_API_TOKEN_FILE: 'token' }, 'expected an absolute, normalised file path'],
    ['a dotted path', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/../x/token` }, 'expected an absolute, normalised file path'],
    ['a NUL', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/tok\0en` }, 'expected an absolute, normalised file path'],
    ['a missing file', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/nope` }, 'no such file'],
    ['a symlink', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/symlink` }, 'refused (receipt_symlink)'],
    ['a second hard link', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/hardlink` }, 'refused (receipt_not_regular)'],
    ['a directory', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/adir` }, 'refused (receipt_not_regular)'],
    ['an oversized file', { GENSWARMS_API_TOKEN_FILE: `${dir.path}/big` }, 'refused (receipt_too_large)'],
    ['an empty file', { GENSWARMS_CONFIG_API_TOKEN_FILE: `${dir.path}/empty` }, 'the file is empty'],
    [
      'both the variable and its file',
      { GENSWARMS_API_TOKEN: 't', GENSWARMS_API_TOKEN_FILE: `${dir.path}/token` },
      'set together with GENSWARMS_API_TOKEN',
    ],
  ])('refuses %s', async (_label, env, reason) => {
    const res = await readTokenFiles(env);
    expect(res).toMatchObject({ kind: 'invalid', line: expect.stringContaining(reason) });
    expect(JSON.stringify(res)).not.toContain('SECRET');
  });

  it('refuses a FIFO without blocking on it', async () => {
    expect(await readTokenFiles({ GENSWARMS_API_TOKEN_FILE: at('fifo') })).toMatchObject({ kind: 'invalid' });
  });

  it('makes runMain print one line and exit 2 on a refused file', async () => {
    const out = captureStream();
    const err = captureStream();
    let code: number | undefined;
    const server = await runMain({
      env: { GENSWARMS_HOME: at('home'), GENSWARMS_SWARM_CONFIG_DIR: dir.path, GENSWARMS_API_TOKEN_FILE: at('symlink') },
      cwd: dir.path,
      uid: process.getuid?.() ?? 0,
      stdout: out.stream,
      stderr: err.stream,
      exit: (c) => {
        code = c;
      },
    });
    expect(server).toBeUndefined();
    expect(code).toBe(2);
    expect(err.text()).toMatch(/^genswarms: invalid GENSWARMS_API_TOKEN_FILE: refused \(receipt_symlink\)[^\n]*\n$/);
    expect(out.text()).toBe('');
  });
});
