/**
 * The no-utmp shim is preloaded into genswarms' tmux servers (code in a process that runs agents' panes), so the
 * file is only used when nobody but root or this user could have written it (its directories:
 * no-utmp-ancestors.spec.ts). LD_PRELOAD names its descriptor, so any path spelling is fine.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { NO_UTMP_LIBRARY_PATH, noUtmpLibrary } from '../src/index';

const isRoot = process.geteuid?.() === 0;

describe('noUtmpLibrary', () => {
  let dir: string;
  beforeAll(() => {
    // below the built shim's own directories: /tmp, sticky and world-writable, would refuse every copy
    dir = mkdtempSync(path.join(path.dirname(path.dirname(NO_UTMP_LIBRARY_PATH)), 'noutmp-file-spec-'));
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
      /open is writable by group or others/,
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

  it.each([
    ['a plain name', 'ok.so'],
    ['npm scope and tilde characters', '@scope~1.so'],
    ['a space (LD_PRELOAD names the descriptor, not this path)', 'a b.so'],
    ['a colon', 'a:b.so'],
    ['a $ the loader would have expanded', '$ORIGIN.so'],
    ['a newline', 'a\nb.so'],
  ])('accepts a copy owned by this user, 0755, named with %s', (_what, name) => {
    const file = copy(name);
    expect(noUtmpLibrary(file)).toEqual({ kind: 'ok', path: file });
  });
});
