import { closeSync, constants as fsc, fstatSync, lstatSync, openSync, realpathSync, type Stats } from 'node:fs';
import * as path from 'node:path';

/**
 * `src/native/no-utmp.c` built as a shared library by `node-gyp rebuild` (the package's install script): libutempter's
 * calls doing nothing. Same depth from src/ and dist/.
 */
export const NO_UTMP_LIBRARY_PATH = path.join(__dirname, '..', '..', '..', 'build', 'Release', 'genswarms-no-utmp.so');

/** The descriptor number the opened shim has in the child that preloads it (its stdio entry 3). */
export const NO_UTMP_CHILD_FD = 3;

/**
 * LD_PRELOAD for that child: the checked file by its descriptor, in the child's own view. The loader opens this
 * magic link, so the file mapped is the one opened and checked, whatever has been renamed since.
 */
export const NO_UTMP_PRELOAD = `/proc/self/fd/${NO_UTMP_CHILD_FD}`;

export type NoUtmpLibrary = { kind: 'ok'; path: string } | { kind: 'unusable'; reason: string };
/** `fd` is the caller's to close (once the child that inherits it has started). */
export type OpenedNoUtmpLibrary = { kind: 'ok'; path: string; fd: number } | { kind: 'unusable'; reason: string };

const unusable = (reason: string): { kind: 'unusable'; reason: string } => ({ kind: 'unusable', reason });
const notBuilt = (file: string) => unusable(`${file} is not built (run npm rebuild @genswarms/procctl)`);

/** Why someone other than root or this user could replace or rewrite `p`, or undefined. */
function untrustedReason(p: string, st: Stats, euid: number): string | undefined {
  if (st.uid !== 0 && st.uid !== euid) return `${p} is owned by uid ${st.uid}, not root or this user`;
  // sticky included (/tmp): its safety would rest on each entry's owner and the kernel's protected_* settings
  if ((st.mode & 0o022) !== 0) return `${p} is writable by group or others`;
  return undefined;
}

/** `/`, then each directory down to the one holding `real` (a resolved path). */
function ancestorsOf(real: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    out.unshift(dir);
    if (path.dirname(dir) === dir) return out;
  }
}

/**
 * Opens the no-utmp shim for a tmux server this process starts, when it may be preloaded: every directory from `/`
 * down (after resolving links) is a directory owned by root or this process's user that nobody else may write
 * (group- or world-writable, sticky or not, is refused), and the file itself is regular, owned the same way and
 * writable by nobody else. The checks run top-down, each directory once its parent proved nobody else could
 * replace it; then the file is opened (`O_NOFOLLOW`) and checked by `fstat`. The child gets that descriptor as
 * NO_UTMP_CHILD_FD with LD_PRELOAD=NO_UTMP_PRELOAD, never the path. Anything else is `unusable` with the reason,
 * and tmux runs as installed (utmp records and all).
 */
export function openNoUtmpLibrary(file: string = NO_UTMP_LIBRARY_PATH): OpenedNoUtmpLibrary {
  if (process.platform !== 'linux') return unusable(`unsupported platform ${process.platform}`);
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    // expected: not built (or a dangling link): the reason says so
    return notBuilt(file);
  }
  const euid = process.geteuid?.() ?? -1;
  for (const dir of ancestorsOf(real)) {
    let st: Stats;
    try {
      st = lstatSync(dir);
    } catch {
      // expected: renamed since realpath (by root or this user: every directory above it passed)
      return unusable(`${dir} changed while it was checked`);
    }
    if (!st.isDirectory()) return unusable(`${dir} changed while it was checked`);
    const why = untrustedReason(dir, st, euid);
    if (why !== undefined) return unusable(why);
  }
  let fd: number;
  try {
    fd = openSync(real, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  } catch {
    // expected: removed, or replaced by a link, since realpath
    return notBuilt(real);
  }
  const st = fstatSync(fd);
  const why = st.isFile() ? untrustedReason(real, st, euid) : `${real} is not a regular file`;
  if (why === undefined) return { kind: 'ok', path: real, fd };
  closeSync(fd);
  return unusable(why);
}

/** openNoUtmpLibrary's answer without keeping the descriptor (`genswarms doctor`). */
export function noUtmpLibrary(file: string = NO_UTMP_LIBRARY_PATH): NoUtmpLibrary {
  const opened = openNoUtmpLibrary(file);
  if (opened.kind !== 'ok') return opened;
  closeSync(opened.fd);
  return { kind: 'ok', path: opened.path };
}
