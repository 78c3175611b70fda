import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ClientError, GenswarmsClient } from '@genswarms/client';

/** How long `genswarms up` waits for the server (docs/cli.md). */
export const UP_WAIT_MS = 15_000;
const POLL_MS = 100;
const LISTENING_RE = /genswarms: listening on (http:\/\/[^\s]+)/g;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The URL from the newest `listening on` line written to server.log after `offset`. */
async function listeningUrl(logFile: string, offset: number): Promise<string | undefined> {
  const text = (await fsp.readFile(logFile)).subarray(offset).toString('utf8');
  let url: string | undefined;
  for (const m of text.matchAll(LISTENING_RE)) url = m[1];
  return url;
}

/** Whether the server answers `GET /` at all (a refusal such as 401 is an answer: it is up). */
async function answers(url: string, token: string | undefined): Promise<boolean> {
  try {
    await new GenswarmsClient({ baseUrl: url, token }).call('getApi', { signal: AbortSignal.timeout(2000) });
    return true;
  } catch (err) {
    // expected: no answer yet (network_error) is 'not ready' (the caller polls); any other failure is an answer
    return !(err instanceof ClientError && err.code === 'network_error');
  }
}

/**
 * The server's last line for the terminal: a plain refusal line (`genswarms: invalid PORT: …`) as it is, a
 * JSON log record (docs/observability.md) as `genswarms: <message> (<code>)`, then `: <explanation>` when the
 * record has one (`store_refused`: what was found, and that the file was left unchanged).
 */
export function describeLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const record = JSON.parse(line) as { message?: unknown; code?: unknown; explanation?: unknown };
    if (typeof record.message !== 'string') return line;
    const code = typeof record.code === 'string' ? ` (${record.code})` : '';
    return `genswarms: ${record.message}${code}${typeof record.explanation === 'string' ? `: ${record.explanation}` : ''}`;
  } catch {
    return line; // expected: a line that only looks like JSON is shown as written
  }
}

export type ReadyResult = { kind: 'ready'; url: string } | { kind: 'exited'; code: number | null; lastLine: string } | { kind: 'timeout' };

/** Waits until the child printed its listening line and `GET /` answers, the child exits, or 15 s pass. */
export async function waitReady(opts: {
  home: string;
  logOffset: number;
  token: string | undefined;
  exited: () => { code: number | null } | undefined;
  /** Resolves once everything the server wrote is in server.log (the log rotator exited). */
  flushed?: () => Promise<void>;
  timeoutMs?: number;
}): Promise<ReadyResult> {
  const logFile = path.join(opts.home, 'server.log');
  const deadline = Date.now() + (opts.timeoutMs ?? UP_WAIT_MS);
  while (Date.now() < deadline) {
    const exit = opts.exited();
    if (exit !== undefined) {
      await opts.flushed?.();
      const tail = (await fsp.readFile(logFile)).subarray(opts.logOffset).toString('utf8').trim().split('\n');
      return { kind: 'exited', code: exit.code, lastLine: describeLogLine(tail[tail.length - 1] ?? '') };
    }
    const url = await listeningUrl(logFile, opts.logOffset);
    if (url !== undefined && (await answers(url, opts.token))) return { kind: 'ready', url };
    await sleep(POLL_MS);
  }
  return { kind: 'timeout' };
}
