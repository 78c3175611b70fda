import * as path from 'node:path';
import { isSameOrInsideNormalized } from '../sandbox/path-rules';

/**
 * Trees of the operating system (code, configuration, boot, kernel and runtime interfaces, root's home,
 * mail and cron spools, logs): no workspace and no workspace root may equal or lie inside one. Handing any
 * of them to an agent uid lets the agent replace what the host runs, trusts or logs (`/etc/passwd`,
 * `/usr/local/bin/*`, `/root/.ssh/authorized_keys`, `/var/spool/cron/*`, `/boot/*`).
 */
export const WORKSPACE_SYSTEM_TREES: readonly string[] = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/nix',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/sys',
  '/usr',
  '/var/backups',
  '/var/cache',
  '/var/log',
  '/var/mail',
  '/var/spool',
];

/**
 * Shared parents that hold everybody's directories: never a workspace or a root themselves (a dedicated
 * directory below them may be). `/` and the server user's home belong here too (see `systemDirOf`).
 */
export const WORKSPACE_SYSTEM_PARENTS: readonly string[] = [
  '/',
  '/home',
  '/media',
  '/mnt',
  '/opt',
  '/srv',
  '/tmp',
  '/var',
  '/var/lib',
  '/var/local',
  '/var/opt',
  '/var/tmp',
];

/**
 * The system directory `real` (an absolute, normalized real path) is or lies in, for the refusal message;
 * undefined when it is none. `userHome` (the server user's home) counts as a parent: refused itself only.
 */
export function systemDirOf(real: string, userHome?: string): string | undefined {
  const tree = WORKSPACE_SYSTEM_TREES.find((t) => isSameOrInsideNormalized(real, t));
  if (tree !== undefined) return tree;
  if (WORKSPACE_SYSTEM_PARENTS.includes(real)) return real;
  if (userHome !== undefined && path.isAbsolute(userHome) && path.resolve(userHome) === real) return real;
  return undefined;
}
