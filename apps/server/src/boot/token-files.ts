import * as path from 'node:path';
import { ReceiptError, readUntrustedFile } from '@genswarms/receipts';
import type { ServerEnv } from '../config/load-server-config';

/** `<VAR>_FILE` → `<VAR>`: the token read from a file (systemd `LoadCredential`, a container secret), never from the environment. */
export const TOKEN_FILE_VARIABLES: ReadonlyArray<readonly [fileVar: string, tokenVar: string]> = [
  ['GENSWARMS_API_TOKEN_FILE', 'GENSWARMS_API_TOKEN'],
  ['GENSWARMS_CONFIG_API_TOKEN_FILE', 'GENSWARMS_CONFIG_API_TOKEN'],
];
/** A token file larger than this is refused (tokens are short; a large file is a wrong path). */
export const TOKEN_FILE_MAX_BYTES = 4096;

export type TokenFilesRead = { kind: 'ok'; tokens: Record<string, string> } | { kind: 'invalid'; line: string };

const refuse = (fileVar: string, reason: string): TokenFilesRead => ({ kind: 'invalid', line: `genswarms: invalid ${fileVar}: ${reason}` });

/**
 * Reads each `*_FILE` token: an absolute path to a regular file (no symlink, one link, at most 4 KiB),
 * one trailing newline dropped, non-empty. Setting both the variable and its `_FILE` is refused, so
 * which token is in force is never a guess. The reason names the problem, never the file's content.
 */
export async function readTokenFiles(env: ServerEnv): Promise<TokenFilesRead> {
  const tokens: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [fileVar, tokenVar] of TOKEN_FILE_VARIABLES) {
    const raw = env[fileVar]?.trim();
    if (raw === undefined || raw === '') continue;
    if (env[tokenVar] !== undefined && env[tokenVar]?.trim() !== '')
      return refuse(fileVar, `set together with ${tokenVar}; set one of them`);
    if (!path.isAbsolute(raw) || raw.includes('\0') || path.normalize(raw) !== raw || raw.endsWith('/'))
      return refuse(fileVar, 'expected an absolute, normalised file path');
    let read;
    try {
      read = await readUntrustedFile(path.dirname(raw), path.basename(raw), TOKEN_FILE_MAX_BYTES);
    } catch (err) {
      if (err instanceof ReceiptError) return refuse(fileVar, `unusable path (${err.code})`);
      throw err;
    }
    if (read.kind === 'missing') return refuse(fileVar, 'no such file');
    if (read.kind === 'refused')
      return refuse(fileVar, `refused (${read.reason}): expected a regular file of at most ${TOKEN_FILE_MAX_BYTES} bytes, not a link`);
    const token = read.data.toString('utf8').replace(/\r?\n$/, '');
    if (token.trim() === '') return refuse(fileVar, 'the file is empty');
    tokens[tokenVar] = token;
  }
  return { kind: 'ok', tokens };
}
