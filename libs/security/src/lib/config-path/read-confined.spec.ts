import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecurityError } from '../errors/security-error';
import { resolveConfigDir } from './config-dir';
import { CONFIG_MAX_BYTES } from './confine';
import { readConfinedConfig } from './read-confined';

let root: string;
let base: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gs-confine-')));
  base = join(root, 'allowed');
  mkdirSync(join(base, 'sub'), { recursive: true });
  mkdirSync(join(root, 'allowed_evil'));
  mkdirSync(join(base, 'dir.json'));
  writeFileSync(join(base, 'ok.json'), '{"name":"a"}');
  writeFileSync(join(base, 'sub', 'ok.yaml'), 'name: a\n');
  writeFileSync(join(base, 'exact.json'), Buffer.alloc(CONFIG_MAX_BYTES, 0x20));
  writeFileSync(join(base, 'big.json'), Buffer.alloc(CONFIG_MAX_BYTES + 1, 0x20));
  writeFileSync(join(root, 'secret.json'), '{"secret":true}');
  writeFileSync(join(root, 'allowed_evil', 'x.json'), '{}');
  symlinkSync(join(root, 'secret.json'), join(base, 'escape.json'));
  symlinkSync(root, join(base, 'updir'));
  symlinkSync(join(base, 'ok.json'), join(base, 'inside-link.json'));
  symlinkSync(join(base, 'missing.json'), join(base, 'dangling.json'));
  const fifo = spawnSync('/usr/bin/mkfifo', [join(base, 'fifo.json')], { stdio: 'ignore', shell: false });
  if (fifo.status !== 0) throw new Error('mkfifo failed');
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('readConfinedConfig', () => {
  test.each<[string, unknown, string]>([
    ['an empty path', '', 'invalid_config_path'],
    ['a non-string path', 7, 'invalid_config_path'],
    ['a NUL byte', 'ok.json\0', 'invalid_config_path'],
    ['home expansion', '~/ok.json', 'invalid_config_path'],
    ['.. traversal', '../secret.json', 'invalid_config_path'],
    ['an absolute path outside', '/etc/passwd', 'invalid_config_path'],
    ['the sibling prefix trap', '../allowed_evil/x.json', 'invalid_config_path'],
    ['a symlink leaving the base', 'escape.json', 'invalid_config_path'],
    ['a symlinked directory leaving the base', 'updir/secret.json', 'invalid_config_path'],
    ['a wrong extension', 'ok.txt', 'unsupported_format'],
    ['a missing file', 'missing.json', 'config_unreadable'],
    ['a dangling symlink', 'dangling.json', 'config_unreadable'],
    ['a directory named x.json', 'dir.json', 'config_unreadable'],
    ['a FIFO inside the base (must not hang)', 'fifo.json', 'config_unreadable'],
    ['a file over 1 MiB', 'big.json', 'config_too_large'],
  ])('refuses %s', async (_label, input, code) => {
    const r = await readConfinedConfig(base, input);
    expect(r).toMatchObject({ kind: 'refused', code });
    if (r.kind === 'refused') expect(r.message).not.toContain(root);
  });

  test.each<[string, string, 'json' | 'yaml']>([
    ['ok.json', '{"name":"a"}', 'json'],
    ['sub/ok.yaml', 'name: a\n', 'yaml'],
    ['inside-link.json', '{"name":"a"}', 'json'],
  ])('reads %s', async (input, content, format) => {
    const r = await readConfinedConfig(base, input);
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') {
      expect(r.content.toString('utf8')).toBe(content);
      expect(r.format).toBe(format);
    }
  });

  it('reads an absolute path inside the base', async () => {
    expect((await readConfinedConfig(base, join(base, 'ok.json'))).kind).toBe('ok');
  });

  it('reads a file of exactly 1 MiB', async () => {
    const r = await readConfinedConfig(base, 'exact.json');
    expect(r.kind === 'ok' && r.content.length).toBe(CONFIG_MAX_BYTES);
  });
});

describe('resolveConfigDir', () => {
  it('defaults to the real cwd', async () => {
    await expect(resolveConfigDir(undefined, base)).resolves.toBe(base);
    await expect(resolveConfigDir('   ', base)).resolves.toBe(base);
  });

  it('resolves a relative directory against cwd to its real path', async () => {
    await expect(resolveConfigDir('updir/allowed', base)).resolves.toBe(base);
  });

  test.each([['missing-dir'], ['ok.json'], ['a\0b']])('refuses %j with invalid_config_dir', async (raw) => {
    await expect(resolveConfigDir(raw, base)).rejects.toMatchObject({ code: 'invalid_config_dir' });
    await expect(resolveConfigDir(raw, base)).rejects.toBeInstanceOf(SecurityError);
  });
});
