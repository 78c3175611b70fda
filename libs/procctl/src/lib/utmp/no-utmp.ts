import { lstatSync, realpathSync, type Stats } from 'node:fs';
import * as path from 'node:path';

/**
 * `src/native/no-utmp.c` built as a shared library by `node-gyp rebuild` (the package's install script): libutempter's
 * calls doing nothing. Same depth from src/ and dist/.
 */
export const NO_UTMP_LIBRARY_PATH = path.join(__dirname, '..', '..', '..', 'build', 'Release', 'genswarms-no-utmp.so');

/**
 * A path LD_PRELOAD reads as exactly one entry, taken literally: it splits on spaces and colons and expands `$ORIGIN`,
 * `$LIB` and `$PLATFORM`, so none of those characters (nor anything else outside this set) is accepted.
 */
const PRELOADABLE_PATH = /^\/[A-Za-z0-9._/+@~%,=-]+$/;

export type NoUtmpLibrary = { kind: 'ok'; path: string } | { kind: 'unusable'; reason: string };

/**
 * Whether the no-utmp shim can be preloaded into a tmux server this process starts: built, a regular file (after
 * resolving links) owned by root or by this process's user, writable by nobody else, in a directory only root or this
 * user may write, on a path LD_PRELOAD reads as one entry. Anything else is `unusable` with the reason, and tmux runs as installed (utmp records and all).
 */
export function noUtmpLibrary(file: string = NO_UTMP_LIBRARY_PATH): NoUtmpLibrary {
  if (process.platform !== 'linux') return { kind: 'unusable', reason: `unsupported platform ${process.platform}` };
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    // expected: not built (or a dangling link): the reason says so
    return { kind: 'unusable', reason: `${file} is not built (run npm rebuild @genswarms/procctl)` };
  }
  if (!PRELOADABLE_PATH.test(real)) return { kind: 'unusable', reason: `${real} has a character LD_PRELOAD cannot take` };
  let st: Stats;
  let dir: Stats;
  try {
    st = lstatSync(real);
    dir = lstatSync(path.dirname(real));
  } catch {
    // expected: removed between the two looks
    return { kind: 'unusable', reason: `${real} is not built (run npm rebuild @genswarms/procctl)` };
  }
  if (!st.isFile()) return { kind: 'unusable', reason: `${real} is not a regular file` };
  const euid = process.geteuid?.() ?? -1;
  const trusted = (s: Stats): boolean => s.uid === 0 || s.uid === euid;
  if (!trusted(st)) return { kind: 'unusable', reason: `${real} is owned by uid ${st.uid}, not root or this user` };
  if ((st.mode & 0o022) !== 0) return { kind: 'unusable', reason: `${real} is writable by group or others` };
  // the file could be swapped after this check by whoever may write its directory: the same people only
  if (!trusted(dir) || (dir.mode & 0o022) !== 0)
    return { kind: 'unusable', reason: `${path.dirname(real)} is writable by someone other than root or this user` };
  return { kind: 'ok', path: real };
}
