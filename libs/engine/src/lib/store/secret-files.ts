/**
 * Agent and object secrets live in `<home>/secrets/<swarm>/<id>` (dir 0700, files 0600), never in
 * genswarms.db. The id is an HMAC of the value under a key kept beside them (`secrets/.key`), so the database
 * carries neither a secret nor a hash an attacker could test guesses against.
 */
import { createHmac, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The directory under the home that holds the secrets. */
export const SECRETS_DIR_NAME = 'secrets';
/** Largest secret file read back (bytes); a config value is far smaller. */
export const SECRET_FILE_MAX_BYTES = 1024 * 1024;
/** An id is 32 hex chars (128 bits of the HMAC). */
const SECRET_ID_RE = /^[0-9a-f]{32}$/;
/** A directory name for a swarm: the Name grammar's characters, never `.`/`..`. */
const SWARM_DIR_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const KEY_FILE = '.key';
const KEY_BYTES = 32;

const OWN_UID = typeof process.getuid === 'function' ? process.getuid() : -1;

/** A private directory: created 0700 if absent; refused when a link, not a directory, or not ours. */
function privateDir(dir: string): string {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error('secret store path is not a real directory');
  if (OWN_UID !== -1 && st.uid !== OWN_UID) throw new Error('secret store directory is not owned by this user');
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
  return dir;
}

/** Reads a 0600 regular file of ours without following a link; `null` when absent. */
function readPrivate(file: string): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || (st.mode & 0o077) !== 0 || (OWN_UID !== -1 && st.uid !== OWN_UID) || st.size > SECRET_FILE_MAX_BYTES) {
      throw new Error('secret file is not a private regular file of ours');
    }
    const buf = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `data` to `file` atomically: a fresh 0600 temp file (`wx`), fsync, rename into place. */
function writePrivate(file: string, data: Buffer): void {
  const tmp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** The 0600 file store of secrets of one home. Synchronous, like the SQLite store that calls it. */
export class SecretFiles {
  private readonly root: string;
  private key: Buffer | null = null;

  constructor(home: string) {
    this.root = path.join(home, SECRETS_DIR_NAME);
  }

  private hmacKey(): Buffer {
    if (this.key !== null) return this.key;
    privateDir(this.root);
    const file = path.join(this.root, KEY_FILE);
    let key = readPrivate(file);
    if (key === null || key.length !== KEY_BYTES) {
      key = randomBytes(KEY_BYTES);
      writePrivate(file, key);
    }
    this.key = key;
    return key;
  }

  private swarmDir(swarm: string): string {
    if (!SWARM_DIR_RE.test(swarm)) throw new Error('swarm name is not fit for a secret directory');
    return path.join(this.root, swarm);
  }

  /** Stores `value` (JSON) for `swarm`; answers its id. The same value answers the same id. */
  put(swarm: string, value: unknown): string {
    const data = Buffer.from(JSON.stringify(value), 'utf8');
    const id = createHmac('sha256', this.hmacKey()).update(swarm).update('\0').update(data).digest('hex').slice(0, 32);
    const dir = privateDir(this.swarmDir(swarm));
    const file = path.join(dir, id);
    if (readPrivate(file)?.equals(data) !== true) writePrivate(file, data);
    return id;
  }

  /** The value stored under `id`, or `{found: false}` (absent, foreign id, or unreadable JSON). */
  get(swarm: string, id: string): { found: true; value: unknown } | { found: false } {
    if (!SECRET_ID_RE.test(id)) return { found: false };
    const buf = readPrivate(path.join(this.swarmDir(swarm), id));
    if (buf === null) return { found: false };
    try {
      return { found: true, value: JSON.parse(buf.toString('utf8')) as unknown };
    } catch {
      // expected: a damaged secret file is withheld (fail-closed), never passed on as text
      return { found: false };
    }
  }

  /** Removes every secret of `swarm` (its data was purged). */
  purge(swarm: string): void {
    fs.rmSync(this.swarmDir(swarm), { recursive: true, force: true });
  }
}
