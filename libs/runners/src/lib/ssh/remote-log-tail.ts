/**
 * Follows an ssh agent's remote `client.log` (stdout and stderr together) over SFTP, so `logs` shows it as for a
 * local agent. The file is the client's to tamper with: lstat first (a link, FIFO or device is never opened), the
 * open bounded in time, at most SSH_LOG_CHUNK_BYTES per poll; a file that shrank is read again from the start.
 */
import { StringDecoder } from 'node:string_decoder';
import type { SFTPWrapper, Stats } from 'ssh2';
import { LineBuffer } from '../process/output-hub';
import { sftpCall, sftpLstatOrNull, sftpOpenBounded } from './sftp-io';

/** How often the remote log is looked at (ms). */
export const SSH_LOG_POLL_MS = 1000;
/** The most read per poll (bytes): a client printing faster is shown late, never unboundedly. */
export const SSH_LOG_CHUNK_BYTES = 65536;
const OPEN_TIMEOUT_MS = 5000;

async function readFrom(s: SFTPWrapper, file: string, st: Stats, offset: number): Promise<Buffer | null> {
  const handle = await sftpOpenBounded(s, file, OPEN_TIMEOUT_MS);
  if (handle === null) return null;
  try {
    const atOpen = await sftpCall<Stats>((cb) => s.fstat(handle, cb));
    if (!atOpen.isFile() || atOpen.uid !== st.uid) return null;
    const want = Math.min(SSH_LOG_CHUNK_BYTES, Math.max(0, atOpen.size - offset));
    if (want === 0) return Buffer.alloc(0);
    const buf = Buffer.alloc(want);
    const n = await sftpCall<number>((cb) => s.read(handle, buf, 0, want, offset, (e, bytes) => cb(e, bytes ?? 0)));
    return buf.subarray(0, n);
  } finally {
    await sftpCall<void>((cb) => s.close(handle, (e) => cb(e, undefined))).catch(() => undefined); // best-effort: a closed channel drops the handle
  }
}

/** Polls `file` until `stop()`; each complete line goes to `emit`. Errors only skip a poll (the link may be down). */
export function tailRemoteLog(sftp: () => Promise<SFTPWrapper>, file: string, emit: (line: string) => void): { stop(): void } {
  let offset = 0;
  let stopped = false;
  const lines = new LineBuffer();
  const decoder = new StringDecoder('utf8'); // a character split across two polls stays whole
  const poll = async (): Promise<void> => {
    const s = await sftp();
    const st = await sftpLstatOrNull(s, file);
    if (st === null || !st.isFile()) return; // a link, FIFO or device planted as the log is never opened
    if (st.size < offset) offset = 0; // truncated or replaced: start over
    if (st.size === offset) return;
    const data = await readFrom(s, file, st, offset);
    if (data === null) return;
    offset += data.length;
    for (const line of lines.push(decoder.write(data))) emit(line);
  };
  const loop = async (): Promise<void> => {
    while (!stopped) {
      await poll().catch(() => undefined); // best-effort: a failed poll is retried at the next tick
      await new Promise((r) => setTimeout(r, SSH_LOG_POLL_MS).unref()); // never what keeps the server alive
    }
  };
  void loop();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
