import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/** Absolute path of an executable `name` on `searchPath` (a PATH value), or undefined. */
export function findOnPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(':')) {
    if (dir === '' || !path.isAbsolute(dir)) continue; // relative PATH entries would depend on cwd
    const candidate = path.join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // expected: not here, try the next directory
    }
  }
  return undefined;
}
