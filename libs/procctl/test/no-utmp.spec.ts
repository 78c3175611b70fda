/**
 * The no-utmp shim is preloaded into genswarms' tmux servers (code in a process that runs agents' panes), so the
 * file is only used when nobody but root or this user could have written it, and its path is one LD_PRELOAD entry.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NO_UTMP_LIBRARY_PATH, noUtmpLibrary } from '../src/index';

const isRoot = process.geteuid?.() === 0;

describe('noUtmpLibrary', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gs-noutmp-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finds the shim npm ci built, exporting libutempter's calls", () => {
    const found = noUtmpLibrary();
    expect(found).toEqual({ kind: 'ok', path: NO_UTMP_LIBRARY_PATH });
    const symbols = execFileSync('/usr/bin/nm', ['-D', '--defined-only', NO_UTMP_LIBRARY_PATH], { encoding: 'utf8' });
    for (const name of ['utempter_add_record', 'utempter_remove_record', 'utempter_remove_added_record'])
      expect(symbols).toMatch(new RegExp(` T ${name}$`, 'm'));
  });

  const copy = (name: string, mode = 0o755): string => {
    const file = path.join(dir, name);
    copyFileSync(NO_UTMP_LIBRARY_PATH, file);
    chmodSync(file, mode);
    return file;
  };

  it.each([
    ['group-writable', () => copy('gw.so', 0o775), /writable by group or others/],
    ['world-writable', () => copy('ww.so', 0o757), /writable by group or others/],
    ['a space in the path (two LD_PRELOAD entries)', () => copy('a b.so'), /LD_PRELOAD cannot take/],
    ['a colon in the path', () => copy('a:b.so'), /LD_PRELOAD cannot take/],
    ['a $ in the path (the loader expands $ORIGIN, $LIB, $PLATFORM)', () => copy('$ORIGIN.so'), /LD_PRELOAD cannot take/],
    ['a newline in the path', () => copy('a\nb.so'), /LD_PRELOAD cannot take/],
    ['a directory', () => (mkdirSync(path.join(dir, 'd.so')), path.join(dir, 'd.so')), /not a regular file/],
    ['missing', () => path.join(dir, 'none.so'), /not built/],
    ['a dangling symlink', () => (symlinkSync(path.join(dir, 'gone.so'), path.join(dir, 'dl.so')), path.join(dir, 'dl.so')), /not built/],
    [
      'a symlink to a writable file (the target is checked)',
      () => {
        const target = copy('tw.so', 0o777);
        symlinkSync(target, path.join(dir, 'ln.so'));
        return path.join(dir, 'ln.so');
      },
      /writable by group or others/,
    ],
    [
      'in a directory others may write (it could be swapped after the check)',
      () => {
        const open = path.join(dir, 'open');
        mkdirSync(open);
        chmodSync(open, 0o777);
        copyFileSync(NO_UTMP_LIBRARY_PATH, path.join(open, 'x.so'));
        chmodSync(path.join(open, 'x.so'), 0o755);
        return path.join(open, 'x.so');
      },
      /open is writable by someone other than root or this user/,
    ],
  ])('refuses a shim that is %s', (_what, make: () => string, reason: RegExp) => {
    const found = noUtmpLibrary(make());
    expect(found.kind).toBe('unusable');
    expect(found.kind === 'unusable' ? found.reason : '').toMatch(reason);
  });

  (isRoot ? it : it.skip)('refuses a shim owned by another user', () => {
    const file = copy('other.so');
    chownSync(file, 4242, 4242);
    const found = noUtmpLibrary(file);
    expect(found.kind === 'unusable' ? found.reason : '').toMatch(/owned by uid 4242/);
  });

  it('accepts a copy owned by this user, 0755, on a plain path (npm scope and tilde characters included)', () => {
    const file = copy('ok.so');
    expect(noUtmpLibrary(file)).toEqual({ kind: 'ok', path: file });
    const scoped = copy('@scope~1.so');
    expect(noUtmpLibrary(scoped)).toEqual({ kind: 'ok', path: scoped });
  });
});
