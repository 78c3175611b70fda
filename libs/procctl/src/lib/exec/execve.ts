import * as path from 'node:path';
import { checkErrno, nativeAddon } from '../addon/native-addon';
import { ProcctlError } from '../errors/procctl-error';

const ENV_NAME_RE = /^[^=\0]+$/;

/** `NAME=value` words; refuses names with `=`/NUL and values with NUL (they cannot cross execve intact). */
export function buildEnvBlock(env: Readonly<Record<string, string | undefined>>): string[] {
  const words: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!ENV_NAME_RE.test(name) || value.includes('\0'))
      throw new ProcctlError(
        'invalid_argument',
        `environment variable ${JSON.stringify(name.replace(/\0/g, '\\0'))} cannot be passed to execve`,
      );
    words.push(`${name}=${value}`);
  }
  return words;
}

/**
 * Replaces this process image (`execve(2)`; Node 20 has no `process.execve`): same pid, the new
 * program gets exactly `argv` and `env`, and of the open descriptors only stdio and `inheritFds`.
 * Returns only by throwing (`invalid_argument`, `syscall_failed`, `addon_missing`).
 */
export function execve(
  file: string,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  opts: { inheritFds?: readonly number[] } = {},
): never {
  if (!path.isAbsolute(file)) throw new ProcctlError('invalid_argument', 'execve needs an absolute file');
  if (file.includes('\0') || argv.some((w) => w.includes('\0'))) throw new ProcctlError('invalid_argument', 'execve argument contains NUL');
  const fds = opts.inheritFds ?? [];
  if (fds.some((fd) => !Number.isInteger(fd) || fd < 3))
    throw new ProcctlError('invalid_argument', 'inherited descriptors must be integers >= 3');
  const addon = nativeAddon();
  checkErrno('execve', addon.execve(file, [...argv], buildEnvBlock(env), [...fds]));
  throw new ProcctlError('syscall_failed', 'execve returned');
}
