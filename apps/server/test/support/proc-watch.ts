import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';

/** An unprivileged uid/gid: the same-uid, non-root reader of the threat model. */
export const NOBODY = 65534;
const SETPRIV = '/usr/bin/setpriv';

/** argv that runs `argv` as uid/gid 65534 with no supplementary groups. */
export function asNobody(argv: readonly string[]): string[] {
  return [SETPRIV, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...argv];
}

export { freePort, onFreshPort } from '@genswarms/tools';

function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** `root` and every live descendant of it. */
export function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const d of readdirSync('/proc')) if (/^[0-9]+$/.test(d)) parents.set(Number(d), parentOf(d) ?? 0);
  const tree = [root];
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!tree.includes(ppid) || tree.includes(pid)) continue;
      tree.push(pid);
      grew = true;
    }
  }
  return tree.filter((p) => parents.has(p));
}

/** `/proc/<pid>/{environ,cmdline}` as read by root ('' for a process gone meanwhile). */
export function procText(pid: number, what: 'environ' | 'cmdline'): string {
  try {
    return readFileSync(`/proc/${pid}/${what}`, 'latin1');
  } catch {
    return '';
  }
}

/** The bytes (≤ 4 MiB each) of every regular file open in `pid`, as read by root through /proc/<pid>/fd. */
export function openFileText(pid: number): string {
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return ''; // expected: the process is gone
  }
  let text = '';
  for (const fd of fds) {
    try {
      const p = `/proc/${pid}/fd/${fd}`;
      if (!statSync(p).isFile()) continue;
      text += readFileSync(p, 'latin1').slice(0, 4 * 1024 * 1024);
    } catch {
      // expected: the descriptor closed meanwhile
    }
  }
  return text;
}

/** Spawns (stdout piped) and resolves once stdout matched `re`; rejects if the process exits first. */
export function spawnUntil(
  argv: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
  re: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, { shell: false, env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer): void => {
      out += c.toString('utf8');
      const m = re.exec(out);
      if (m !== null) resolve({ child, match: m });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`exited ${String(code)} before ${re}: ${out}`)));
  });
}
