import * as path from 'node:path';
import { defaultClientsDir } from '@genswarms/runners';
import { CliError, EXIT } from '../cli/exit-codes';
import { homePath } from '../daemon/home';

type Env = Readonly<Record<string, string | undefined>>;

/** Where coding clients are installed: `GENSWARMS_CLIENTS_DIR`, else `$GENSWARMS_HOME/clients`. */
export interface ClientsDir {
  readonly dir: string;
  readonly source: 'GENSWARMS_CLIENTS_DIR' | 'GENSWARMS_HOME';
}

/** An explicitly named directory that is not absolute (or holds NUL) is refused, never replaced by the default. */
export function clientsDirOf(env: Env, cwd: string): ClientsDir {
  const raw = env['GENSWARMS_CLIENTS_DIR'];
  if (raw === undefined || raw.trim() === '') return { dir: defaultClientsDir(homePath(env, cwd)), source: 'GENSWARMS_HOME' };
  const dir = raw.trim();
  if (dir.includes('\0') || !path.isAbsolute(dir)) {
    throw new CliError('invalid_clients_dir', 'GENSWARMS_CLIENTS_DIR must be an absolute path', EXIT.usage);
  }
  return { dir: path.normalize(dir), source: 'GENSWARMS_CLIENTS_DIR' };
}
