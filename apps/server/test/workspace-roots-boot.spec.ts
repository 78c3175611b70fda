/**
 * GENSWARMS_WORKSPACE_ROOTS at boot (docs/security.md "Workspace roots", README.md (Configuration)): a system
 * directory, the server user's home, a missing path or a file, a relative path, NUL, GENSWARMS_HOME or a path
 * inside it other than its `workspaces/` → one stderr line and exit 2, nothing bound.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadServerConfig, runMain } from '../src/index';
import type { ServerEnv } from '../src/index';
import { captureStream, tempDir } from './support/harness';

const dir = tempDir('gs-roots-boot-');
const uid = process.getuid?.() ?? 0;
const home = join(dir.path, 'home');
const op = join(dir.path, 'op');
const ws = join(dir.path, 'ws');
mkdirSync(op);
mkdirSync(ws);
mkdirSync(join(dir.path, 'home-sub-parent'));
writeFileSync(join(dir.path, 'file'), 'x');
symlinkSync('/etc', join(dir.path, 'etc-link'));
const env = (roots: string | undefined): ServerEnv => ({
  GENSWARMS_HOME: home,
  GENSWARMS_SWARM_CONFIG_DIR: dir.path,
  HOME: op,
  ...(roots === undefined ? {} : { GENSWARMS_WORKSPACE_ROOTS: roots }),
});
const line = (why: string): string => `genswarms: invalid GENSWARMS_WORKSPACE_ROOTS: ${why}`;
/** On a merged-/usr host `/bin` and `/lib` are links into `/usr`: refused as lying in /usr. */
const systemLine = (p: string): string =>
  line(realpathSync(p) === p ? `"${p}" is a system directory or the server user's home` : `"${p}" lies in the system directory /usr`);

afterAll(() => dir.cleanup());

describe('GENSWARMS_WORKSPACE_ROOTS refuses to boot', () => {
  test.each<[string, () => string, () => string]>([
    ['/', () => '/', () => line('"/" is a system directory or the server user\'s home')],
    ['/etc', () => '/etc', () => line('"/etc" is a system directory or the server user\'s home')],
    ['/usr', () => '/usr', () => line('"/usr" is a system directory or the server user\'s home')],
    ['/usr/local/bin', () => '/usr/local/bin', () => line('"/usr/local/bin" lies in the system directory /usr')],
    ['/bin', () => '/bin', () => systemLine('/bin')],
    ['/lib', () => '/lib', () => systemLine('/lib')],
    ['/boot', () => '/boot', () => line('"/boot" is a system directory or the server user\'s home')],
    ['/proc', () => '/proc', () => line('"/proc" is a system directory or the server user\'s home')],
    ['/dev', () => '/dev', () => line('"/dev" is a system directory or the server user\'s home')],
    ['/var', () => '/var', () => line('"/var" is a system directory or the server user\'s home')],
    ['/var/spool', () => '/var/spool', () => line('"/var/spool" is a system directory or the server user\'s home')],
    ['/root', () => '/root', () => line('"/root" is a system directory or the server user\'s home')],
    ['/tmp', () => '/tmp', () => line('"/tmp" is a system directory or the server user\'s home')],
    [
      'a link to /etc',
      () => join(dir.path, 'etc-link'),
      () => line(`${JSON.stringify(join(dir.path, 'etc-link'))} is a system directory or the server user's home`),
    ],
    ["the server user's home", () => op, () => line(`${JSON.stringify(op)} is a system directory or the server user's home`)],
    [
      'GENSWARMS_HOME itself',
      () => home,
      () =>
        line(`${JSON.stringify(home)} is GENSWARMS_HOME or inside it (only ${join(realpathSync(home), 'workspaces')} may be a root there)`),
    ],
    [
      'a path inside GENSWARMS_HOME',
      () => join(home, 'state'),
      () =>
        line(
          `${JSON.stringify(join(home, 'state'))} is GENSWARMS_HOME or inside it (only ${join(realpathSync(home), 'workspaces')} may be a root there)`,
        ),
    ],
    ['a missing directory', () => join(dir.path, 'nope'), () => line(`${JSON.stringify(join(dir.path, 'nope'))} does not exist`)],
    ['a file', () => join(dir.path, 'file'), () => line(`${JSON.stringify(join(dir.path, 'file'))} is not a directory`)],
    ['a relative path', () => 'ws', () => line('"ws" is not an absolute path')],
    ['NUL', () => `${ws}\0`, () => line(`${JSON.stringify(`${ws}\0`)} contains NUL`)],
    ['an empty entry', () => `${ws},`, () => line('an entry is empty (a comma-separated list of absolute directories)')],
  ])('refuses %s', async (_label, roots, expected) => {
    mkdirSync(join(home, 'state'), { recursive: true, mode: 0o700 });
    const loaded = await loadServerConfig(env(roots()), { cwd: dir.path, uid, gid: uid });
    expect(loaded).toMatchObject({ kind: 'invalid', variable: 'GENSWARMS_WORKSPACE_ROOTS', line: expected() });
  });

  test.each<[string, string | undefined, () => readonly string[]]>([
    ['unset: <home>/workspaces', undefined, () => [join(realpathSync(home), 'workspaces')]],
    ['blank: the default', ' ', () => [join(realpathSync(home), 'workspaces')]],
    ['a directory and <home>/workspaces', `${ws}, ${join(home, 'workspaces')}`, () => [ws, join(realpathSync(home), 'workspaces')]],
  ])('boots with %s', async (_label, roots, expected) => {
    const loaded = await loadServerConfig(env(roots), { cwd: dir.path, uid, gid: uid });
    expect(loaded).toMatchObject({ kind: 'ok', config: { workspaceRoots: expected() } });
  });

  it('runMain prints the one line, exits 2 and binds nothing', async () => {
    const out = captureStream();
    const err = captureStream();
    let code: number | undefined;
    const server = await runMain({
      env: { ...env('/etc'), PORT: '4999', GENSWARMS_HTTP_IP: '127.0.0.1' },
      cwd: dir.path,
      uid,
      stdout: out.stream,
      stderr: err.stream,
      exit: (c) => (code = c),
    });
    expect(server).toBeUndefined();
    expect(code).toBe(2);
    expect(err.text()).toBe(`${line('"/etc" is a system directory or the server user\'s home')}\n`);
    expect(out.text()).toBe('');
  });
});
