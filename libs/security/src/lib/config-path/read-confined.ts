import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { CONFIG_MAX_BYTES, checkConfinedPath, isInsideBase } from './confine';

export type ConfinedRead =
  | { kind: 'ok'; content: Buffer; format: 'json' | 'yaml' }
  | {
      kind: 'refused';
      code: 'invalid_config_path' | 'unsupported_format' | 'config_unreadable' | 'config_too_large';
      message: string;
    };

type Refusal = Extract<ConfinedRead, { kind: 'refused' }>;

const UNREADABLE: Refusal = { kind: 'refused', code: 'config_unreadable', message: 'config file could not be read' };
const ESCAPED: Refusal = { kind: 'refused', code: 'invalid_config_path', message: 'config_path must stay inside the config directory' };
const TOO_LARGE: Refusal = { kind: 'refused', code: 'config_too_large', message: `config file exceeds ${CONFIG_MAX_BYTES} bytes` };

/** O_NONBLOCK: a FIFO planted under the config dir must not hang the request. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Where the open descriptor really points (Linux); undefined when it cannot be told. */
async function descriptorPath(fh: FileHandle): Promise<string | undefined> {
  try {
    return await fsp.readlink(`/proc/self/fd/${fh.fd}`);
  } catch {
    // expected: an unreadable descriptor path fails confinement (undefined)
    return undefined;
  }
}

async function readBounded(fh: FileHandle): Promise<Buffer> {
  const buf = Buffer.alloc(CONFIG_MAX_BYTES + 1);
  let total = 0;
  while (total < buf.length) {
    const { bytesRead } = await fh.read(buf, total, buf.length - total, total);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return buf.subarray(0, total);
}

async function readOpened(base: string, fh: FileHandle): Promise<Refusal | Buffer> {
  const st = await fh.stat();
  if (!st.isFile()) return UNREADABLE;
  if (st.size > CONFIG_MAX_BYTES) return TOO_LARGE;
  if (process.platform === 'linux') {
    const where = await descriptorPath(fh);
    if (where === undefined || !isInsideBase(base, where)) return ESCAPED;
  }
  const content = await readBounded(fh);
  return content.length > CONFIG_MAX_BYTES ? TOO_LARGE : content;
}

/**
 * docs/security.md steps 1–5: lexical checks first (nothing touched before they pass), then realpath,
 * re-check, open O_NOFOLLOW|O_NONBLOCK, fstat (regular, ≤ 1 MiB), /proc/self/fd re-check, bounded read.
 * `base` must be the real path fixed at boot. Messages never contain paths.
 */
export async function readConfinedConfig(base: string, configPath: unknown): Promise<ConfinedRead> {
  const checked = checkConfinedPath(base, configPath);
  if (checked.kind === 'refused') return checked;
  let real: string;
  try {
    real = await fsp.realpath(checked.candidate);
  } catch {
    // expected: unresolvable is UNREADABLE, with no detail (the path may name a secret file)
    return UNREADABLE;
  }
  if (!isInsideBase(base, real)) return ESCAPED;
  let fh: FileHandle;
  try {
    fh = await fsp.open(real, OPEN_FLAGS);
  } catch {
    // expected: unopenable is UNREADABLE, with no detail
    return UNREADABLE;
  }
  try {
    const result = await readOpened(base, fh);
    return Buffer.isBuffer(result) ? { kind: 'ok', content: result, format: checked.format } : result;
  } catch {
    // expected: a failed read is UNREADABLE, with no detail
    return UNREADABLE;
  } finally {
    // best-effort: close after the result is decided; a close error changes nothing for the caller.
    await fh.close().catch(() => undefined);
  }
}
