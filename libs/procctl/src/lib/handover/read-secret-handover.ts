import { Socket } from 'node:net';
import { decodeHandover } from './handover-payload';
import type { SecretMap } from './secret-names';
import { SECRET_HANDOVER_FD_ENV, SECRET_HANDOVER_MAX_BYTES, SECRET_HANDOVER_TIMEOUT_MS } from './secret-names';

export type SecretHandoverRead = { kind: 'none' } | { kind: 'ok'; secrets: SecretMap } | { kind: 'invalid'; reason: string };

const FD_RE = /^[0-9]{1,6}$/;

/** Reads the descriptor to EOF (bounded in size and time), then closes it. */
function readFd(fd: number, timeoutMs: number): Promise<{ kind: 'ok'; bytes: Buffer } | { kind: 'invalid'; reason: string }> {
  return new Promise((resolve) => {
    let sock: Socket;
    try {
      sock = new Socket({ fd, readable: true, writable: false });
    } catch (err) {
      resolve({ kind: 'invalid', reason: `descriptor ${fd} is not a pipe or socket (${(err as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Resolves only once the descriptor is really closed (libuv closes it on the next loop turn).
    const finish = (r: { kind: 'ok'; bytes: Buffer } | { kind: 'invalid'; reason: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.removeAllListeners('data');
      sock.once('close', () => resolve(r));
      sock.destroy();
    };
    const timer = setTimeout(() => finish({ kind: 'invalid', reason: `no end of handover within ${timeoutMs} ms` }), timeoutMs);
    sock.on('data', (c: Buffer) => {
      size += c.length;
      if (size > SECRET_HANDOVER_MAX_BYTES) finish({ kind: 'invalid', reason: `handover over ${SECRET_HANDOVER_MAX_BYTES} bytes` });
      else chunks.push(c);
    });
    sock.on('end', () => finish({ kind: 'ok', bytes: Buffer.concat(chunks) }));
    sock.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'invalid', reason: `read failed (${err.code ?? 'error'})` }));
  });
}

/**
 * Takes the secrets handed over by `execWithSecrets` or by a parent that wrote them to the child's
 * pipe: `none` without `GENSWARMS_SECRETS_FD`, else reads that descriptor once, closes it, and
 * accepts only `names`. Call it before starting any child (the descriptor is inheritable).
 */
export async function readSecretHandover(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
  opts: { timeoutMs?: number } = {},
): Promise<SecretHandoverRead> {
  const raw = env[SECRET_HANDOVER_FD_ENV];
  if (raw === undefined) return { kind: 'none' };
  const fd = FD_RE.test(raw) ? Number(raw) : NaN;
  if (!(fd >= 3)) return { kind: 'invalid', reason: `${SECRET_HANDOVER_FD_ENV} must be a descriptor number >= 3` };
  const read = await readFd(fd, opts.timeoutMs ?? SECRET_HANDOVER_TIMEOUT_MS);
  return read.kind === 'ok' ? decodeHandover(read.bytes, names) : read;
}
