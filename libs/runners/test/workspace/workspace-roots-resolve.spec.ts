/**
 * GENSWARMS_WORKSPACE_ROOTS as the app hands it over (docs/security.md "Workspace roots"): real paths fixed
 * at boot; a system directory, the server user's home, a missing path, a file, a relative path, NUL or a
 * path inside GENSWARMS_HOME other than its `workspaces/` refuse the whole list.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveWorkspaceRoots, WORKSPACE_ROOTS_MAX } from '../../src/index';

const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-roots-')));
const home = path.join(tmp, 'home');
const ws = path.join(tmp, 'ws');
const other = path.join(tmp, 'other');
mkdirSync(home, { mode: 0o700 });
mkdirSync(ws);
mkdirSync(other);
mkdirSync(path.join(home, 'state'));
writeFileSync(path.join(tmp, 'file'), 'x');
symlinkSync(ws, path.join(tmp, 'ws-link'));
symlinkSync('/etc', path.join(tmp, 'etc-link'));
const userHome = path.join(tmp, 'op');
mkdirSync(userHome);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const resolve = (raw: string | undefined): ReturnType<typeof resolveWorkspaceRoots> => resolveWorkspaceRoots({ raw, home, userHome });

describe('resolveWorkspaceRoots', () => {
  test.each<[string, string | undefined, readonly string[]]>([
    ['unset: <home>/workspaces (may not exist yet)', undefined, [path.join(home, 'workspaces')]],
    ['blank: the default', '  ', [path.join(home, 'workspaces')]],
    ['one directory', ws, [ws]],
    ['two, spaces trimmed, duplicates dropped', ` ${ws} , ${other},${ws}`, [ws, other]],
    ['a link to a directory: its real path', path.join(tmp, 'ws-link'), [ws]],
    ['<home>/workspaces named explicitly, missing', path.join(home, 'workspaces'), [path.join(home, 'workspaces')]],
    ['a normalized `..` that lands on a directory', path.join(ws, '..', 'other'), [other]],
  ])('accepts %s', (_label, raw, roots) => {
    expect(resolve(raw)).toEqual({ kind: 'ok', roots });
  });

  test.each<[string, string, string]>([
    ['/', '/', 'is a system directory'],
    ['/etc', '/etc', 'is a system directory'],
    ['/usr/local/bin', '/usr/local/bin', 'lies in the system directory /usr'],
    ['/root', '/root', 'is a system directory'],
    ['/boot', '/boot', 'is a system directory'],
    ['/var', '/var', 'is a system directory'],
    ['/var/lib', '/var/lib', 'is a system directory'],
    ['/var/spool', '/var/spool', 'is a system directory'],
    ['/tmp', '/tmp', 'is a system directory'],
    ['/home', '/home', 'is a system directory'],
    ['/proc', '/proc', 'is a system directory'],
    ['a link to /etc', path.join(tmp, 'etc-link'), 'is a system directory'],
    ["the server user's home", userHome, "the server user's home"],
    ['GENSWARMS_HOME', home, 'is GENSWARMS_HOME or inside it'],
    ['a directory inside GENSWARMS_HOME', path.join(home, 'state'), 'is GENSWARMS_HOME or inside it'],
    ['a missing directory', path.join(tmp, 'nope'), 'does not exist'],
    ['a file', path.join(tmp, 'file'), 'is not a directory'],
    ['a relative path', 'ws', 'is not an absolute path'],
    ['NUL', `${ws}\0x`, 'contains NUL'],
    ['an empty entry', `${ws},,${other}`, 'an entry is empty'],
    ['a trailing comma', `${ws},`, 'an entry is empty'],
    ['one bad entry among good ones', `${ws},/etc`, 'is a system directory'],
  ])('refuses %s', (_label, raw, reason) => {
    const r = resolve(raw);
    expect(r.kind).toBe('invalid');
    expect(r.kind === 'invalid' && r.reason).toContain(reason);
  });

  it(`refuses more than ${WORKSPACE_ROOTS_MAX} entries`, () => {
    expect(resolve(Array.from({ length: WORKSPACE_ROOTS_MAX + 1 }, () => ws).join(','))).toMatchObject({ kind: 'invalid' });
  });

  it('names the entry as written in the reason', () => {
    expect(resolve('/usr/local/bin')).toEqual({ kind: 'invalid', reason: '"/usr/local/bin" lies in the system directory /usr' });
  });
});
