import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { CliError, EXIT } from '../cli/exit-codes';

/**
 * The server entry `apps/server/dist/main.js`, found through the workspace package (the CLI never
 * imports the server app; it only starts it as a process).
 */
export function resolveServerMain(explicit: string | undefined): string {
  if (explicit !== undefined) return explicit;
  const candidates: string[] = [];
  try {
    candidates.push(path.join(path.dirname(require.resolve('@genswarms/server/package.json')), 'dist', 'main.js'));
  } catch {
    // expected: not installed as a package, fall back to the monorepo layout below.
  }
  candidates.push(path.resolve(__dirname, '..', '..', '..', 'server', 'dist', 'main.js'));
  const found = candidates.find((c) => existsSync(c));
  if (found === undefined) throw new CliError('server_missing', 'server entry not found; build apps/server first', EXIT.failed);
  return found;
}
