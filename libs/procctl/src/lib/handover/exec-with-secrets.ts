import { closeSync, writeSync } from 'node:fs';
import { checkErrno, nativeAddon } from '../addon/native-addon';
import { ProcctlError } from '../errors/procctl-error';
import { execve } from '../exec/execve';
import { encodeHandover } from './handover-payload';
import { SECRET_HANDOVER_FD_ENV, splitSecrets } from './secret-names';

export interface ExecWithSecretsSpec {
  readonly file: string;
  readonly argv: readonly string[];
  /** The new program's environment before the split: every `secretNames` entry is moved out of it. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Secrets that did not come from `env` (e.g. read from an earlier handover); they win over `env`. */
  readonly extraSecrets?: Readonly<Record<string, string>>;
  readonly secretNames: readonly string[];
}

/** Writes all of `bytes` to a non-blocking pipe; a full pipe is `handover_too_large`, never a hang. */
function writeAll(fd: number, bytes: Buffer): void {
  let off = 0;
  while (off < bytes.length) {
    try {
      off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN')
        throw new ProcctlError('handover_too_large', 'secret handover does not fit the pipe buffer');
      throw new ProcctlError('syscall_failed', `handover write failed: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, { cause: err });
    }
  }
}

/**
 * Re-executes as `file argv` with every secret removed from the environment; the secrets travel
 * through an inherited pipe named by `GENSWARMS_SECRETS_FD` (see `readSecretHandover`). So the new
 * image's `/proc/<pid>/environ` and `cmdline` hold no secret. Returns only by throwing.
 */
export function execWithSecrets(spec: ExecWithSecretsSpec): never {
  const { clean, secrets } = splitSecrets(spec.env, [...spec.secretNames, SECRET_HANDOVER_FD_ENV]);
  delete secrets[SECRET_HANDOVER_FD_ENV];
  const payload = encodeHandover({ ...secrets, ...spec.extraSecrets });
  const fds = nativeAddon().pipe();
  if (typeof fds === 'number') checkErrno('pipe2', fds);
  const [readFd, writeFd] = fds as [number, number];
  try {
    writeAll(writeFd, payload);
  } finally {
    closeSync(writeFd);
  }
  try {
    return execve(spec.file, spec.argv, { ...clean, [SECRET_HANDOVER_FD_ENV]: String(readFd) }, { inheritFds: [readFd] });
  } finally {
    closeSync(readFd);
  }
}
