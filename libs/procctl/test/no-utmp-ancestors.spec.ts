/**
 * Whoever may write any directory above the no-utmp shim could swap the shim (or a directory holding it) between
 * the check and the tmux server's load: every ancestor must be root's or ours and writable by nobody else (a
 * sticky world-writable directory like /tmp too), and the loader is handed the descriptor that was checked.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NO_UTMP_CHILD_FD, NO_UTMP_LIBRARY_PATH, NO_UTMP_PRELOAD, noUtmpLibrary, openNoUtmpLibrary } from '../src/index';
import { IS_ROOT } from './support';

/** A private directory whose own ancestors pass (those of the shim npm ci built): /tmp would fail them all. */
const TRUSTED_BASE = path.dirname(path.dirname(NO_UTMP_LIBRARY_PATH));

let base: string;
beforeAll(() => {
  base = mkdtempSync(path.join(TRUSTED_BASE, 'noutmp-spec-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** `<base>/<tree…>/Release/x.so` with each directory of `tree` created at its mode, the shim copied 0755. */
function shimBelow(name: string, tree: readonly (readonly [string, number])[]): string {
  let dir = path.join(base, name);
  mkdirSync(dir, { mode: 0o755 });
  for (const [part, mode] of tree) {
    dir = path.join(dir, part);
    mkdirSync(dir);
    chmodSync(dir, mode);
  }
  const file = path.join(dir, 'x.so');
  copyFileSync(NO_UTMP_LIBRARY_PATH, file);
  chmodSync(file, 0o755);
  return file;
}

describe('the ancestors of the no-utmp shim', () => {
  test.each([
    [
      'group-writable, two levels up',
      [
        ['gw', 0o775],
        ['ok', 0o755],
        ['Release', 0o755],
      ],
      /\/gw is writable by group or others/,
    ],
    [
      'world-writable and sticky (like /tmp), three levels up',
      [
        ['tmp', 0o1777],
        ['a', 0o755],
        ['b', 0o755],
        ['Release', 0o755],
      ],
      /\/tmp is writable by group or others/,
    ],
    [
      'world-writable, right above Release',
      [
        ['ww', 0o757],
        ['Release', 0o755],
      ],
      /\/ww is writable by group or others/,
    ],
    [
      'group-writable and setgid',
      [
        ['sg', 0o2775],
        ['Release', 0o755],
      ],
      /\/sg is writable by group or others/,
    ],
  ] as const)('refuses a shim below a directory that is %s', (what, tree, reason) => {
    const name = what.replace(/[^a-z]/g, '');
    const found = noUtmpLibrary(shimBelow(name, tree));
    expect(found.kind).toBe('unusable');
    expect(found.kind === 'unusable' ? found.reason : '').toMatch(reason);
    expect(openNoUtmpLibrary(shimBelow(`${name}-open`, tree)).kind).toBe('unusable');
  });

  it('refuses a shim in a private directory below the real temp directory (its sticky world-writable ancestor)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gs-noutmp-'));
    try {
      const file = path.join(dir, 'x.so');
      copyFileSync(NO_UTMP_LIBRARY_PATH, file);
      chmodSync(file, 0o755);
      const found = noUtmpLibrary(file);
      expect(found.kind === 'unusable' ? found.reason : 'ok').toMatch(/is writable by group or others/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  (IS_ROOT ? it : it.skip)('refuses an ancestor owned by another user, even 0755', () => {
    const file = shimBelow('foreign', [
      ['theirs', 0o755],
      ['Release', 0o755],
    ]);
    chownSync(path.join(base, 'foreign', 'theirs'), 4242, 4242);
    const found = noUtmpLibrary(file);
    expect(found.kind === 'unusable' ? found.reason : 'ok').toMatch(/\/theirs is owned by uid 4242/);
  });

  it("accepts a shim whose every ancestor is root's or ours and 0755 or stricter", () => {
    const file = shimBelow('fine', [
      ['a', 0o755],
      ['b', 0o700],
      ['Release', 0o750],
    ]);
    expect(noUtmpLibrary(file)).toEqual({ kind: 'ok', path: file });
  });
});

describe('the descriptor the loader is handed', () => {
  it('still names the checked file after an ancestor was swapped, and a child preloading it maps that file', () => {
    const file = shimBelow('swap', [
      ['pkg', 0o755],
      ['Release', 0o755],
    ]);
    const opened = openNoUtmpLibrary(file);
    if (opened.kind !== 'ok') throw new Error(opened.reason);
    try {
      const checked = statSync(file);
      // what write access to an ancestor allows: move Release aside, plant another library at the same path
      renameSync(path.join(base, 'swap', 'pkg', 'Release'), path.join(base, 'swap', 'pkg', 'Checked'));
      mkdirSync(path.join(base, 'swap', 'pkg', 'Release'));
      copyFileSync(NO_UTMP_LIBRARY_PATH, file);
      writeFileSync(path.join(base, 'swap', 'pkg', 'Release', 'marker'), 'planted');
      const planted = statSync(file);
      expect(planted.ino).not.toBe(checked.ino);
      expect(fstatSync(opened.fd).ino).toBe(checked.ino);
      // the child inherits the descriptor as NO_UTMP_CHILD_FD and LD_PRELOAD names it in the child's view
      const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
      stdio[NO_UTMP_CHILD_FD] = opened.fd;
      const r = spawnSync('/bin/cat', ['/proc/self/maps'], { env: { LD_PRELOAD: NO_UTMP_PRELOAD }, stdio, encoding: 'utf8', shell: false });
      expect(r.stderr).toBe(''); // the loader did not refuse the preload
      const mapped = r.stdout
        .split('\n')
        .filter((l) => l.endsWith('/x.so'))
        .map((l) => Number(l.trim().split(/\s+/)[4]));
      expect(new Set(mapped)).toEqual(new Set([checked.ino]));
    } finally {
      closeSync(opened.fd);
    }
  });
});
