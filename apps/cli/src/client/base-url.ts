import * as path from 'node:path';
import { CliError, EXIT } from '../cli/exit-codes';
import { homePath } from '../daemon/home';
import { readServerUrl, SERVER_URL_FILE } from '../daemon/server-url';
import { DEFAULT_BASE_URL, parseBaseUrl } from './api-client';

/** The server URL the CLI talks to and where it came from (named in every `unreachable` error). */
export interface BaseUrl {
  readonly url: string;
  readonly source: string;
}

/**
 * `GENSWARMS_URL` when set; else the URL `genswarms up` recorded in `$GENSWARMS_HOME/server.url`; else
 * the default. An unreadable or invalid server.url is refused (exit 2), never replaced by the default.
 */
export function resolveBaseUrl(env: Readonly<Record<string, string | undefined>>, cwd: string): BaseUrl {
  const fromEnv = env['GENSWARMS_URL'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { url: parseBaseUrl(fromEnv), source: 'URL from GENSWARMS_URL' };
  const file = path.join(homePath(env, cwd), SERVER_URL_FILE);
  const record = readServerUrl(path.dirname(file));
  switch (record.kind) {
    case 'ok':
      return { url: record.url, source: `URL from ${file} (written by genswarms up)` };
    case 'missing':
      return { url: DEFAULT_BASE_URL, source: `default URL: GENSWARMS_URL is unset and ${file} does not exist` };
    case 'invalid':
      throw new CliError(
        'invalid_server_url',
        `${file} is invalid (${record.reason}); remove it (genswarms down) or set GENSWARMS_URL`,
        EXIT.usage,
      );
  }
}
