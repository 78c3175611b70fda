import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';

export const FIXTURES = join(__dirname, 'fixtures');
/** An unprivileged uid for "same-uid, not root" checks (the test itself runs as root). */
export const NOBODY = 65534;
export const SETPRIV = '/usr/bin/setpriv';
export const IS_ROOT = process.getuid?.() === 0;

/** Builds dist/ so child processes can `require('@genswarms/procctl')`. */
export function buildLib(): void {
  const built = buildOnce([resolve(__dirname, '..', 'tsconfig.lib.json')]);
  if (built.kind === 'failed') throw new Error(`procctl build failed: ${built.output.slice(0, 2000)}`);
}

/** argv that runs `argv` as uid/gid 65534 with no supplementary groups. */
export function asNobody(argv: readonly string[]): string[] {
  return [SETPRIV, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', ...argv];
}

/** Runs to completion; stdout, stderr and status. */
export function run(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin' },
): { status: number | null; stdout: string; stderr: string } {
  const [file, ...args] = argv as [string, ...string[]];
  const r = spawnSync(file, args, { shell: false, env, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts a long-running child and resolves with it once its stdout has a line. */
export function startUntilLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin' },
): Promise<{ child: ChildProcess; line: string }> {
  const [file, ...args] = argv as [string, ...string[]];
  const child = spawn(file, args, { shell: false, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl >= 0) resolvePromise({ child, line: out.slice(0, nl) });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`exited ${String(code)} before a line: ${out}`)));
  });
}
