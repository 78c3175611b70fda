import { promises as fsp } from 'node:fs';
import { resolve } from 'node:path';
import { SecurityError } from '../errors/security-error';

/**
 * docs/security.md#7-config_path-confinement-genswarms_swarm_config_dir: resolves GENSWARMS_SWARM_CONFIG_DIR (unset → cwd) to its real path, which must be
 * an existing directory. Throws `invalid_config_dir` otherwise.
 */
export async function resolveConfigDir(raw: string | undefined, cwd: string): Promise<string> {
  const value = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : cwd;
  if (value.includes('\0')) throw new SecurityError('invalid_config_dir', 'path contains NUL');
  try {
    const real = await fsp.realpath(resolve(cwd, value));
    const st = await fsp.stat(real);
    if (!st.isDirectory()) throw new SecurityError('invalid_config_dir', 'not a directory');
    return real;
  } catch (err) {
    if (err instanceof SecurityError) throw err;
    throw new SecurityError('invalid_config_dir', 'directory does not exist or cannot be resolved', { cause: err });
  }
}
