import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { CliError, EXIT } from '../cli/exit-codes';

/** `$GENSWARMS_HOME` as an absolute path (default `./.genswarms` under cwd); nothing created. */
export function homePath(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  const raw = env['GENSWARMS_HOME'];
  return path.resolve(cwd, raw === undefined || raw.trim() === '' ? '.genswarms' : raw.trim());
}

/** `$GENSWARMS_HOME` (default `./.genswarms` under cwd), created 0700; the server re-checks it at boot. */
export async function ensureHome(env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<string> {
  const home = homePath(env, cwd);
  await fsp.mkdir(home, { recursive: true, mode: 0o700 });
  const st = await fsp.lstat(home);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new CliError('unsafe_home', 'GENSWARMS_HOME is not a real directory', EXIT.failed);
  return home;
}

const PID_RE = /^[0-9]{1,10}\n?$/;
const PID_FILE = 'server.pid';

/** Reads `server.pid` without following a symlink; undefined when absent or malformed. */
export async function readPid(home: string): Promise<number | undefined> {
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(path.join(home, PID_FILE), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    // expected: no readable pid file means no daemon recorded
    return undefined;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > 32) return undefined;
    const text = (await fh.readFile()).toString('utf8');
    const pid = PID_RE.test(text) ? Number(text.trim()) : NaN;
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } finally {
    // best-effort: close of a read-only descriptor.
    await fh.close().catch(() => undefined);
  }
}

/** Replaces `server.pid` (stale file removed, then created exclusively 0600). */
export async function writePid(home: string, pid: number): Promise<void> {
  const file = path.join(home, PID_FILE);
  await fsp.rm(file, { force: true });
  await fsp.writeFile(file, `${pid}\n`, { flag: 'wx', mode: 0o600 });
}

export async function removePid(home: string): Promise<void> {
  await fsp.rm(path.join(home, PID_FILE), { force: true });
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens `server.log` for appending, 0600, never through a symlink. */
export async function openServerLog(home: string): Promise<fsp.FileHandle> {
  const fh = await fsp.open(
    path.join(home, 'server.log'),
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
    0o600,
  );
  await fh.chmod(0o600);
  return fh;
}
