import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hostClientPlatform, nativeBinaryCandidates } from '@genswarms/runners';
import { findOnPath } from '../src/cli/which';
import { npmInstallArgv, npmInstallEnv } from '../src/clients/npm-install';
import { startFakeRegistry } from './fake-npm-registry';
import type { FakeRegistry } from './fake-npm-registry';
import { cli, tempDir } from './support';

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
const NPM = findOnPath('npm', SYSTEM_PATH);
if (NPM === undefined) console.warn('SKIPPING the clients install runs: npm is not on /usr/local/bin:/usr/bin:/bin');
const PLATFORM = hostClientPlatform();
/** The platform package opencode's binary is looked for in first on this host, e.g. `opencode-linux-x64`. */
const PLATFORM_PACKAGE = PLATFORM === undefined ? '' : ((nativeBinaryCandidates('opencode', PLATFORM)[0] ?? '').split('/')[0] ?? '');

describe('genswarms clients install (real npm, a registry on loopback)', () => {
  const dir = tempDir('gs-cli-clients-');
  const marker = join(dir.path, 'POSTINSTALL_RAN');
  let registry: FakeRegistry;
  beforeAll(async () => {
    registry = await startFakeRegistry([
      {
        manifest: {
          name: 'opencode-ai',
          version: '1.18.33',
          bin: { opencode: './bin/opencode.exe' },
          scripts: { postinstall: `node -e "require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')"` },
          optionalDependencies: { [PLATFORM_PACKAGE]: '1.18.33' },
        },
        files: { 'bin/opencode.exe': ['#!/bin/sh\necho placeholder >&2\nexit 1\n', 0o755] },
      },
      { manifest: { name: PLATFORM_PACKAGE, version: '1.18.33' }, files: { 'bin/opencode': ['#!/bin/sh\necho 1.18.33\n', 0o755] } },
    ]);
  });
  afterAll(async () => {
    await registry.close();
    dir.cleanup();
  });

  const env = (home: string): Record<string, string> => ({
    PATH: SYSTEM_PATH,
    HOME: join(dir.path, 'npm-home'),
    GENSWARMS_HOME: home,
    npm_config_registry: `${registry.url}/`,
    GENSWARMS_API_TOKEN: 'not-for-npm',
  });

  (NPM === undefined || PLATFORM === undefined ? it.skip : it)(
    'installs into $GENSWARMS_HOME/clients/<name>/<version> without running package scripts, then finds the native binary',
    async () => {
      const home = join(dir.path, 'home-ok');
      const r = await cli(['clients', 'install', 'opencode'], env(home));
      expect(r).toMatchObject({ code: 0 });
      const prefix = join(home, 'clients', 'opencode', '1.18.33');
      const binary = join(prefix, 'node_modules', PLATFORM_PACKAGE, 'bin', 'opencode');
      expect(r.stdout).toBe(`opencode 1.18.33: installed: ${binary}\n`);
      expect(existsSync(marker)).toBe(false);
      expect(readdirSync(join(home, 'clients', 'opencode'))).toEqual(['1.18.33']); // no staging directory left
      expect(statSync(prefix).mode & 0o777).toBe(0o755);
      const list = await cli(['clients', 'list', '--json'], env(home));
      const rows = (JSON.parse(list.stdout) as { clients: Array<Record<string, unknown>> }).clients;
      expect(rows.find((c) => c['name'] === 'opencode')).toEqual({
        name: 'opencode',
        version: '1.18.33',
        pinned_version: '1.18.33',
        state: 'ok',
        binary,
        detail: '1.18.33',
      });
      const fetched = registry.requests.length;
      const again = await cli(['clients', 'install', 'opencode'], env(home));
      expect(again.stdout).toBe(`opencode 1.18.33: already installed: ${binary}\n`);
      expect(registry.requests.length).toBe(fetched);
    },
  );

  (NPM === undefined ? it.skip : it)('reports npm_failed for a version the registry lacks, and leaves nothing behind', async () => {
    const home = join(dir.path, 'home-404');
    const r = await cli(['clients', 'install', 'opencode', '--version', '9.9.9'], env(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/genswarms: npm_failed: npm install opencode-ai@9\.9\.9 failed \(exit 1\)/);
    expect(readdirSync(join(home, 'clients', 'opencode'))).toEqual([]);
  });

  it('refuses to install over a directory that is not a working install, and leaves it alone', async () => {
    const home = join(dir.path, 'home-conflict');
    const target = join(home, 'clients', 'opencode', '1.18.33');
    mkdirSync(target, { recursive: true, mode: 0o755 });
    const r = await cli(['clients', 'install', 'opencode'], env(home));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`genswarms: install_conflict: cannot install into ${target}:`);
    expect(readdirSync(target)).toEqual([]);
  });

  test.each([
    [['clients', 'install', 'evil'], 'invalid_client'],
    [['clients', 'install', '__proto__'], 'invalid_client'],
    [['clients', 'install', 'codex', '--version', 'latest'], 'invalid_version'],
    [['clients', 'install', 'codex', '--version', '../../etc'], 'invalid_version'],
    [['clients', 'install', 'codex', '--version', '^0.169.0'], 'invalid_version'],
    [['clients', 'install', 'codex', '--version', '0.169.0 --ignore-scripts=false'], 'invalid_version'],
    [['clients', 'install', '--version', '0.169.0'], 'invalid_version'],
  ])('exits 2 on %j (%s), before npm runs', async (argv, code) => {
    const before = registry.requests.length;
    const r = await cli(argv, env(join(dir.path, 'home-usage')));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^genswarms: ${code}: [^\n]+\n$`));
    expect(registry.requests.length).toBe(before);
  });

  test.each([['relative/clients'], ['clients\0x']])('refuses GENSWARMS_CLIENTS_DIR=%j (exit 2)', async (value) => {
    const r = await cli(['clients', 'list'], { PATH: SYSTEM_PATH, GENSWARMS_CLIENTS_DIR: value });
    expect(r).toMatchObject({ code: 2, stderr: 'genswarms: invalid_clients_dir: GENSWARMS_CLIENTS_DIR must be an absolute path\n' });
  });
});

describe('npm argv and environment (pure)', () => {
  it('installs exactly one pinned spec, scripts off, into the prefix', () => {
    expect(npmInstallArgv('/c/codex/.install-x', '@openai/codex', '0.169.0')).toEqual([
      'install',
      '--prefix',
      '/c/codex/.install-x',
      '--ignore-scripts',
      '--save-exact',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--loglevel=warn',
      '@openai/codex@0.169.0',
    ]);
  });

  it('builds the environment: node first on PATH, registry settings passed, nothing else', () => {
    const env = npmInstallEnv(
      {
        PATH: '/evil/bin',
        HOME: '/home/op',
        npm_config_registry: 'http://mirror/',
        HTTPS_PROXY: 'http://proxy:3128',
        GENSWARMS_API_TOKEN: 't',
        GENSWARMS_LLM_API_KEY: 'k',
        OPENAI_API_KEY: 'k',
        NODE_OPTIONS: '--require /tmp/x.js',
        npm_config_ignore_scripts: 'false',
      },
      '/opt/node/bin/node',
    );
    expect({ ...env }).toEqual({
      PATH: '/opt/node/bin:/usr/local/bin:/usr/bin:/bin',
      LANG: 'C',
      HOME: '/home/op',
      npm_config_registry: 'http://mirror/',
      HTTPS_PROXY: 'http://proxy:3128',
    });
    expect(Object.getPrototypeOf(env)).toBeNull();
  });
});
