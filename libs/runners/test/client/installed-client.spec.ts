import { chmodSync, chownSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLIENT_MANIFEST_MAX_BYTES,
  clientInstallDir,
  listInstalledVersions,
  nativeBinaryCandidates,
  resolveInstalledClient,
} from '../../src';
import type { ClientPlatform } from '../../src';

const LINUX_X64: ClientPlatform = { os: 'linux', arch: 'x64', musl: false, avx2: true };
const CODEX_BIN = '@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex';

/** A fake npm install of Codex in the layout `genswarms clients install` produces; returns the clients dir. */
function fakeCodexInstall(base: string, version = '0.169.0', packageVersion = version): string {
  const clients = join(base, 'clients');
  const nodeModules = join(clients, 'codex', version, 'node_modules');
  mkdirSync(join(nodeModules, '@openai', 'codex'), { recursive: true, mode: 0o755 });
  writeFileSync(join(nodeModules, '@openai', 'codex', 'package.json'), JSON.stringify({ name: '@openai/codex', version: packageVersion }));
  mkdirSync(join(nodeModules, CODEX_BIN, '..'), { recursive: true, mode: 0o755 });
  writeFileSync(join(nodeModules, CODEX_BIN), '#!/bin/sh\necho codex-cli\n', { mode: 0o755 });
  return clients;
}

describe('resolveInstalledClient', () => {
  let base = '';
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'clients-'));
    chmodSync(base, 0o755);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('finds the native binary of the pinned version inside the platform package', () => {
    const clients = fakeCodexInstall(base);
    const prefix = join(clients, 'codex', '0.169.0');
    expect(resolveInstalledClient(clients, 'codex', { platform: LINUX_X64 })).toEqual({
      kind: 'ok',
      client: {
        name: 'codex',
        version: '0.169.0',
        prefix,
        nodeModules: join(prefix, 'node_modules'),
        binary: join(prefix, 'node_modules', CODEX_BIN),
      },
    });
    expect(listInstalledVersions(clients, 'codex')).toEqual(['0.169.0']);
  });

  test.each([
    ['nothing is installed', (c: string) => rmSync(join(c, 'codex'), { recursive: true })],
    ['another version is installed', (c: string) => renameSync(join(c, 'codex', '0.169.0'), join(c, 'codex', '0.170.0'))],
    [
      'the platform package is absent (npm --omit=optional)',
      (c: string) => rmSync(join(c, 'codex', '0.169.0', 'node_modules', '@openai', 'codex-linux-x64'), { recursive: true }),
    ],
    ['the package.json is absent', (c: string) => rmSync(join(c, 'codex', '0.169.0', 'node_modules', '@openai', 'codex', 'package.json'))],
  ])('reports missing when %s', (_name, damage) => {
    const clients = fakeCodexInstall(base);
    damage(clients);
    expect(resolveInstalledClient(clients, 'codex', { platform: LINUX_X64 }).kind).toBe('missing');
  });

  test.each([
    [
      'a version directory that is a link',
      (c: string) => {
        renameSync(join(c, 'codex', '0.169.0'), join(c, 'codex', 'real'));
        symlinkSync(join(c, 'codex', 'real'), join(c, 'codex', '0.169.0'));
      },
    ],
    [
      'a node_modules that is a link',
      (c: string) => {
        const nm = join(c, 'codex', '0.169.0', 'node_modules');
        renameSync(nm, join(base, 'elsewhere'));
        symlinkSync(join(base, 'elsewhere'), nm);
      },
    ],
    [
      'a binary that is a link',
      (c: string) => {
        const bin = join(c, 'codex', '0.169.0', 'node_modules', CODEX_BIN);
        rmSync(bin);
        symlinkSync('/bin/sh', bin);
      },
    ],
    ['a group-writable clients directory', (c: string) => chmodSync(c, 0o775)],
    ['a world-writable binary', (c: string) => chmodSync(join(c, 'codex', '0.169.0', 'node_modules', CODEX_BIN), 0o757)],
    ['a binary that is not executable', (c: string) => chmodSync(join(c, 'codex', '0.169.0', 'node_modules', CODEX_BIN), 0o644)],
    [
      'a binary path that is a directory',
      (c: string) => {
        const bin = join(c, 'codex', '0.169.0', 'node_modules', CODEX_BIN);
        rmSync(bin);
        mkdirSync(bin, { mode: 0o755 });
      },
    ],
  ])('refuses %s as unsafe', (_name, damage) => {
    const clients = fakeCodexInstall(base);
    damage(clients);
    expect(resolveInstalledClient(clients, 'codex', { platform: LINUX_X64, uid: 4242 }).kind).toBe('unsafe');
  });

  (process.getuid?.() === 0 ? it : it.skip)('refuses a version directory of another user as unsafe (needs root for chown)', () => {
    const clients = fakeCodexInstall(base);
    chownSync(join(clients, 'codex', '0.169.0'), 4243, 4243);
    expect(resolveInstalledClient(clients, 'codex', { platform: LINUX_X64, uid: 4242 }).kind).toBe('unsafe');
  });

  test.each([
    ['a relative clients directory', 'clients', '0.169.0'],
    ['a range', undefined, '^0.169.0'],
    ['a tag', undefined, 'latest'],
    ['a path', undefined, '../../etc'],
    ['a short version', undefined, '0.169'],
    ['a NUL', undefined, '0.169.0\0'],
    ['__proto__', undefined, '__proto__'],
    ['a leading zero', undefined, '0.0169.0'],
  ])('refuses %s as invalid', (_name, dir, version) => {
    const clients = fakeCodexInstall(base);
    expect(resolveInstalledClient(dir ?? clients, 'codex', { platform: LINUX_X64, version }).kind).toBe('invalid');
  });

  test.each([
    ['another version', JSON.stringify({ name: '@openai/codex', version: '9.9.9' })],
    ['another package', JSON.stringify({ name: 'evil-codex', version: '0.169.0' })],
    ['not JSON', '{'],
    ['an array', '[]'],
  ])('refuses a package.json naming %s', (_name, text) => {
    const clients = fakeCodexInstall(base);
    writeFileSync(join(clients, 'codex', '0.169.0', 'node_modules', '@openai', 'codex', 'package.json'), text);
    expect(resolveInstalledClient(clients, 'codex', { platform: LINUX_X64 }).kind).toBe('invalid');
  });

  it('does not read an oversized package.json', () => {
    const clients = fakeCodexInstall(base);
    const file = join(clients, 'codex', '0.169.0', 'node_modules', '@openai', 'codex', 'package.json');
    writeFileSync(file, ' '.repeat(CLIENT_MANIFEST_MAX_BYTES + 1));
    expect(resolveInstalledClient(clients, 'codex', { platform: LINUX_X64 }).kind).toBe('missing');
  });

  it('refuses a bad version when naming the install directory', () => {
    expect(() => clientInstallDir('/x', 'codex', '../0.1.0')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(clientInstallDir('/x', 'opencode', '1.18.33')).toBe('/x/opencode/1.18.33');
  });
});

describe('nativeBinaryCandidates', () => {
  test.each([
    ['codex', LINUX_X64, [CODEX_BIN]],
    [
      'codex',
      { os: 'linux', arch: 'arm64', musl: true, avx2: false },
      ['@openai/codex-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/codex'],
    ],
    [
      'codex',
      { os: 'darwin', arch: 'arm64', musl: false, avx2: false },
      ['@openai/codex-darwin-arm64/vendor/aarch64-apple-darwin/bin/codex'],
    ],
    ['claude', LINUX_X64, ['@anthropic-ai/claude-code-linux-x64/claude']],
    ['claude', { os: 'linux', arch: 'x64', musl: true, avx2: true }, ['@anthropic-ai/claude-code-linux-x64-musl/claude']],
    ['opencode', LINUX_X64, ['opencode-linux-x64/bin/opencode', 'opencode-linux-x64-baseline/bin/opencode']],
    ['opencode', { ...LINUX_X64, avx2: false }, ['opencode-linux-x64-baseline/bin/opencode', 'opencode-linux-x64/bin/opencode']],
    [
      'opencode',
      { os: 'linux', arch: 'x64', musl: true, avx2: false },
      ['opencode-linux-x64-baseline-musl/bin/opencode', 'opencode-linux-x64-musl/bin/opencode'],
    ],
    ['opencode', { os: 'linux', arch: 'arm64', musl: false, avx2: false }, ['opencode-linux-arm64/bin/opencode']],
  ] as const)('%s on %j', (name, platform, expected) => {
    expect(nativeBinaryCandidates(name, platform)).toEqual(expected);
  });
});
