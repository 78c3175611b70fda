import * as os from 'node:os';
import * as path from 'node:path';
import { ProcctlError } from '../errors/procctl-error';

/** The C functions of `src/native/procctl.c`: each returns >= 0 on success or -errno. */
export interface NativeProcctl {
  setDumpable(flag: number): number;
  getDumpable(): number;
  setChildSubreaper(flag: number): number;
  getChildSubreaper(): number;
  pipe(): number[] | number;
  execve(file: string, argv: readonly string[], env: readonly string[], inheritFds: readonly number[]): number;
  /**
   * Resolves `[pid, outputFd, id]` (the child's fd 1 and 2 are that one pipe), rejects with -errno; a number (-errno)
   * when the arguments are refused. `onExit(pid, code, signal)` once the child was reaped (code -1: killed by
   * `signal`; signal 0: exited).
   */
  spawnDetached(
    file: string,
    argv: readonly string[],
    env: readonly string[],
    cwd: string,
    onExit: (pid: number, code: number, signal: number) => void,
  ): Promise<number[]> | number;
  /** The output pipe of child `id` ended: the reaper looks whether it exited (else watches it by a pidfd). */
  outputEnded(id: number): number;
}

/** Built by `node-gyp rebuild` (the package's install script, run by `npm ci`). Same depth from src/ and dist/. */
export const PROCCTL_ADDON_PATH = path.join(__dirname, '..', '..', '..', 'build', 'Release', 'procctl.node');

export type ProcctlStatus = { kind: 'ok' } | { kind: 'missing'; reason: string };

type Loaded = { kind: 'ok'; addon: NativeProcctl } | { kind: 'missing'; reason: string };
let loaded: Loaded | undefined;

function load(): Loaded {
  if (process.platform !== 'linux') return { kind: 'missing', reason: `unsupported platform ${process.platform}` };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a native addon can only be loaded through require
    return { kind: 'ok', addon: require(PROCCTL_ADDON_PATH) as NativeProcctl };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      kind: 'missing',
      reason: `cannot load ${PROCCTL_ADDON_PATH} (${typeof code === 'string' ? code : 'load error'}); run npm rebuild @genswarms/procctl`,
    };
  }
}

/** Whether the native addon is usable on this host (loaded once; the result never changes). */
export function procctlStatus(): ProcctlStatus {
  loaded ??= load();
  return loaded.kind === 'ok' ? { kind: 'ok' } : loaded;
}

/** The addon, or `addon_missing`. */
export function nativeAddon(): NativeProcctl {
  loaded ??= load();
  if (loaded.kind === 'missing') throw new ProcctlError('addon_missing', `procctl addon unavailable: ${loaded.reason}`);
  return loaded.addon;
}

/** Maps a negative return to `syscall_failed` with the errno name (EPERM, EINVAL …). */
export function checkErrno(what: string, rc: number): number {
  if (rc >= 0) return rc;
  const name = Object.entries(os.constants.errno).find(([, n]) => n === -rc)?.[0] ?? `errno ${-rc}`;
  throw new ProcctlError(rc === -22 ? 'invalid_argument' : 'syscall_failed', `${what} failed: ${name}`);
}
