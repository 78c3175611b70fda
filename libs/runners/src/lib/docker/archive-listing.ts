/**
 * `readdir` through the archive API: GET of the directory streams a tar of the whole subtree; only the headers
 * are parsed (file bytes are skipped as they pass) and the stream is dropped once a bound is reached. A listing
 * cut short by a bound is a prefix in the engine's lexical walk order: the caller drains those names and sees
 * the rest on its next poll (docs/receipts.md "Remote receipts").
 */
import * as path from 'node:path';
import type { Container } from 'dockerode';
import { RunnerError } from '../errors/runner-error';
import { TarParser, TarRefusedError } from './archive-tar';

/** Headers parsed per listing (the subtree's, not only the children). */
export const ARCHIVE_LIST_MAX_ENTRIES = 4096;
/** Archive bytes streamed per listing (file contents pass through uncopied). */
export const ARCHIVE_LIST_MAX_BYTES = 16 * 1024 * 1024;
/** A listing that has not ended within this is abandoned: a transport failure. */
export const ARCHIVE_LIST_TIMEOUT_MS = 15_000;

type Readable = NodeJS.ReadableStream & { destroy(err?: Error): void };

function failed(message: string, cause?: unknown): RunnerError {
  return new RunnerError('remote_transport_failed', message, { details: { op: 'readdir' }, ...(cause === undefined ? {} : { cause }) });
}

/** Adds to `into` the first-level names below `base` among archive header names. */
export function collectChildren(base: string, headerNames: Iterable<string>, into: Set<string>): void {
  const prefix = `${base}/`;
  for (const name of headerNames) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length).replace(/\/$/, '');
    if (rest.length > 0 && !rest.includes('/')) into.add(rest);
  }
}

/** The entry names of directory `dir` (an absolute, checked path) seen in the first `maxEntries` headers / ARCHIVE_LIST_MAX_BYTES bytes; [] when it does not exist. */
export async function listArchiveDirectory(c: Container, dir: string, maxEntries = ARCHIVE_LIST_MAX_ENTRIES): Promise<string[]> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ARCHIVE_LIST_TIMEOUT_MS);
  let stream: Readable;
  try {
    stream = (await c.getArchive({ path: dir, abortSignal: ctl.signal })) as Readable;
  } catch (e) {
    clearTimeout(timer);
    if ((e as { statusCode?: unknown } | null)?.statusCode === 404) return [];
    throw failed('the engine refused a directory listing', e);
  }
  // the bound on bytes is ours to stop at (a prefix), not a refusal: the parser's own cap sits above it
  const parser = new TarParser({ maxTotalBytes: ARCHIVE_LIST_MAX_BYTES + 1024 * 1024, allowPaxPath: true });
  const base = path.posix.basename(dir);
  const names = new Set<string>();
  let entries = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const heads: string[] = [];
      for (const ev of parser.write(chunk)) {
        if (ev.kind === 'entry' && entries < maxEntries) {
          entries += 1;
          heads.push(ev.header.name);
        }
      }
      collectChildren(base, heads, names);
      if (entries >= maxEntries || parser.bytesSeen >= ARCHIVE_LIST_MAX_BYTES) break;
    }
  } catch (e) {
    if (e instanceof TarRefusedError) throw failed(`the engine's directory archive was refused (${e.refusal})`, e);
    throw failed(
      ctl.signal.aborted ? `a directory listing did not end within ${ARCHIVE_LIST_TIMEOUT_MS} ms` : 'the listing stream failed',
      e,
    );
  } finally {
    clearTimeout(timer);
    stream.destroy();
  }
  return [...names];
}
