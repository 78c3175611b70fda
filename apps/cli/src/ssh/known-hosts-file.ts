/** The operator's known_hosts file as `genswarms ssh` writes it: appended, 0600, a regular file of ours (never through a link). */
import { randomBytes } from 'node:crypto';
import { constants as fsc, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { hashKnownHostName, knownHostsName } from '@genswarms/runners';
import { CliError, EXIT } from '../cli/exit-codes';

/** `$GENSWARMS_HOME/known_hosts`: the ssh backend's first known_hosts file (docs/runners.md "ssh"). */
export function defaultKnownHostsFile(home: string): string {
  return path.join(home, 'known_hosts');
}

/** One hashed line (`|1|salt|hmac type base64`) for host:port, as `ssh-keygen -H` writes it. */
export function knownHostsLine(host: string, port: number, keyType: string, key: Buffer): string {
  return `${hashKnownHostName(knownHostsName(host, port), randomBytes(20))} ${keyType} ${key.toString('base64')}`;
}

/** Appends one line: created 0600 if missing; refused if it is a link, not a regular file, or readable by others. */
export async function appendKnownHost(file: string, line: string): Promise<void> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT | fsc.O_NOFOLLOW, 0o600);
  } catch (e) {
    throw new CliError(
      'known_hosts_unsafe',
      `cannot open ${file} for writing (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      EXIT.failed,
    );
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0) {
      throw new CliError('known_hosts_unsafe', `${file} must be a regular file of yours, not writable by group or others`, EXIT.failed);
    }
    const prefix = st.size > 0 && !(await endsWithNewline(file, st.size)) ? '\n' : '';
    await handle.write(`${prefix}${line}\n`);
  } finally {
    await handle.close();
  }
}

async function endsWithNewline(file: string, size: number): Promise<boolean> {
  const reader = await fsp.open(file, fsc.O_RDONLY | fsc.O_NOFOLLOW);
  try {
    const buf = Buffer.alloc(1);
    await reader.read(buf, 0, 1, size - 1);
    return buf[0] === 0x0a;
  } finally {
    await reader.close();
  }
}
