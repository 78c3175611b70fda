import { closeSync, constants, fstatSync, openSync, promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkBaseUrl } from '../client/base-url-check';

/** `$GENSWARMS_HOME/server.url`: `{"version":1,"url":…}`, 0600, written by `up` once the server answers; no secret. */
export const SERVER_URL_FILE = 'server.url';
/** Far above any real record; a bigger file is refused unread. */
const SERVER_URL_MAX_BYTES = 1024;

export type ServerUrlRecord = { kind: 'ok'; url: string } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

/** Records the URL `up` bound: a temporary file created exclusively 0600, renamed into place. */
export async function writeServerUrl(home: string, url: string): Promise<void> {
  const file = path.join(home, SERVER_URL_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await fsp.rm(tmp, { force: true });
  await fsp.writeFile(tmp, `${JSON.stringify({ version: 1, url })}\n`, { flag: 'wx', mode: 0o600 });
  await fsp.rename(tmp, file);
}

export async function removeServerUrl(home: string): Promise<void> {
  await fsp.rm(path.join(home, SERVER_URL_FILE), { force: true });
}

function parseRecord(text: string): ServerUrlRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    // expected: reported as invalid below, never a fallback to the default URL
    return { kind: 'invalid', reason: 'not JSON' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'invalid', reason: 'not an object' };
  const keys = Object.keys(raw).sort().join(',');
  if (keys !== 'url,version') return { kind: 'invalid', reason: `fields must be exactly version, url (got ${keys})` };
  const rec = raw as { version: unknown; url: unknown };
  if (rec.version !== 1) return { kind: 'invalid', reason: 'version must be 1' };
  if (typeof rec.url !== 'string') return { kind: 'invalid', reason: 'url must be a string' };
  const url = checkBaseUrl(rec.url);
  return url === undefined
    ? { kind: 'invalid', reason: 'url must be an http or https URL without credentials, query or fragment' }
    : { kind: 'ok', url };
}

/**
 * Reads `server.url` synchronously (the API client is built lazily in a sync getter), never through a
 * symlink or a FIFO; only `missing` may fall back to the default URL.
 */
export function readServerUrl(home: string): ServerUrlRecord {
  let fd: number;
  try {
    fd = openSync(path.join(home, SERVER_URL_FILE), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : { kind: 'invalid', reason: `unreadable (${code ?? 'error'})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'invalid', reason: 'not a regular file' };
    if (st.size > SERVER_URL_MAX_BYTES) return { kind: 'invalid', reason: `larger than ${SERVER_URL_MAX_BYTES} bytes` };
    return parseRecord(readFileSync(fd).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}
