import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { CODING_CLIENTS, clientInstallDir, resolveInstalledClient } from '@genswarms/runners';
import type { CodingClientName, InstalledClient } from '@genswarms/runners';
import type { CliContext } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { npmInstallArgv, npmInstallEnv } from './npm-install';

/** What one install needs; `npm` and `node` are absolute paths resolved once by the command. */
export interface InstallRequest {
  readonly clientsDir: string;
  readonly name: CodingClientName;
  readonly version: string;
  readonly npm: string;
  readonly node: string;
}

export type InstallOutcome = { kind: 'installed'; client: InstalledClient } | { kind: 'present'; client: InstalledClient };

/**
 * Installs one client into `<clientsDir>/<name>/<version>`: npm runs into a fresh dot-directory beside it,
 * which is renamed into place only after npm succeeded, so a half-done install is never taken for one.
 * An install that is already there and resolves is left alone; a directory there that does not resolve is
 * refused (never deleted).
 */
export async function installClient(ctx: CliContext, req: InstallRequest): Promise<InstallOutcome> {
  const target = clientInstallDir(req.clientsDir, req.name, req.version);
  const before = resolveInstalledClient(req.clientsDir, req.name, { version: req.version });
  if (before.kind === 'ok') return { kind: 'present', client: before.client };
  if (before.kind === 'unsupported_platform') throw new CliError('unsupported_platform', before.reason, EXIT.failed);
  if (before.kind !== 'missing' || (await exists(target))) {
    throw new CliError('install_conflict', `cannot install into ${target}: ${before.reason}; fix or remove it and run again`, EXIT.failed);
  }
  await makeDirs(path.dirname(target));
  const staging = await fsp.mkdtemp(path.join(path.dirname(target), `.install-${req.version}-`));
  try {
    const code = await runNpm(ctx, req, staging);
    if (code !== 0) {
      throw new CliError(
        'npm_failed',
        `npm install ${CODING_CLIENTS[req.name].npmPackage}@${req.version} failed (exit ${String(code)}); see the lines above`,
        EXIT.failed,
      );
    }
    await fsp.chmod(staging, 0o755); // readable by a root server's agent uid; never writable by it
    await fsp.rename(staging, target);
  } catch (err) {
    await fsp.rm(staging, { recursive: true, force: true }); // best effort: only our own staging directory
    if (isRenameRace(err)) return present(req);
    throw err;
  }
  const after = resolveInstalledClient(req.clientsDir, req.name, { version: req.version });
  if (after.kind !== 'ok')
    throw new CliError('install_unusable', `npm installed ${target}, but it does not resolve: ${after.reason}`, EXIT.failed);
  return { kind: 'installed', client: after.client };
}

/** Creates `dir` and its missing parents 0755 (whatever the umask: runners refuse group/world-writable paths). */
async function makeDirs(dir: string): Promise<void> {
  const first = await fsp.mkdir(dir, { recursive: true, mode: 0o755 });
  if (first === undefined) return;
  for (let p = dir; p.length >= first.length; p = path.dirname(p)) await fsp.chmod(p, 0o755);
}

/** npm in the staging prefix; umask 022 while it starts, so nothing it writes is group/world-writable. */
function runNpm(ctx: CliContext, req: InstallRequest, prefix: string): Promise<number | null> {
  const argv = npmInstallArgv(prefix, CODING_CLIENTS[req.name].npmPackage, req.version);
  return new Promise((resolve, reject) => {
    const umask = process.umask(0o022);
    const child = spawn(req.npm, [...argv], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: npmInstallEnv(ctx.env, req.node),
      cwd: prefix,
    });
    process.umask(umask);
    child.stdout.on('data', (c: Buffer) => ctx.stderr.write(c));
    child.stderr.on('data', (c: Buffer) => ctx.stderr.write(c));
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
}

/** Another install of the same version won the rename: use it if it resolves. */
function present(req: InstallRequest): InstallOutcome {
  const found = resolveInstalledClient(req.clientsDir, req.name, { version: req.version });
  if (found.kind !== 'ok')
    throw new CliError('install_conflict', `a concurrent install left ${req.name} ${req.version} unusable: ${found.reason}`, EXIT.failed);
  return { kind: 'present', client: found.client };
}

function isRenameRace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOTEMPTY' || code === 'EEXIST';
}

async function exists(p: string): Promise<boolean> {
  try {
    await fsp.lstat(p);
    return true;
  } catch {
    // expected: absent (any other lstat failure shows up again when npm or the rename touches the path)
    return false;
  }
}
