/** Remote setup of one ssh agent over SFTP: prerequisites, the constant scripts, the launch files. */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { SFTPWrapper } from 'ssh2';
import type { LaunchPlan } from '../port';
import { RunnerError } from '../errors/runner-error';
import { computeManifestBudget } from '../manifest/argv-manifest';
import { LAUNCHER_PATH } from '../launcher/launcher';
import { REMOTE_SCRIPTS, type RemoteLayout } from './remote-layout';
import { sftpEnsurePrivateDir, sftpLstatOrNull, sftpRemoveIfPresent, sftpWriteNewFile } from './sftp-io';

const ASSETS_DIR = path.dirname(LAUNCHER_PATH);

export async function uploadScripts(s: SFTPWrapper, l: RemoteLayout, uid: number): Promise<void> {
  await sftpEnsurePrivateDir(s, l.root, uid);
  await sftpEnsurePrivateDir(s, l.bin, uid);
  await sftpEnsurePrivateDir(s, path.posix.dirname(l.dir), uid);
  for (const name of REMOTE_SCRIPTS) {
    const bytes = await fsp.readFile(path.join(ASSETS_DIR, name));
    const target = path.posix.join(l.bin, name);
    const tmp = `${target}.${randomBytes(8).toString('hex')}.upload`; // agents of one host start concurrently
    await sftpWriteNewFile(s, tmp, bytes, uid, 0o500);
    await new Promise<void>((resolve, reject) => s.ext_openssh_rename(tmp, target, (e) => (e ? reject(e) : resolve())));
  }
}

async function assertRemoteExecutable(s: SFTPWrapper, file: string, agent: string, what: string): Promise<void> {
  const st = await new Promise<{ isFile(): boolean; mode: number } | null>((resolve) => s.stat(file, (e, v) => resolve(e ? null : v)));
  if (st === null || !st.isFile() || (st.mode & 0o111) === 0) {
    throw new RunnerError('binary_missing', `${what} ${file} is missing or not executable on the remote host`, {
      agent,
      details: { remote: file },
    });
  }
}

/** xargs and the client executable on the remote host → `binary_missing` (a plan code: validate says it too). */
export async function assertRemotePrerequisites(s: SFTPWrapper, plan: LaunchPlan): Promise<void> {
  const xargs = (await sftpLstatOrNull(s, '/usr/bin/xargs')) !== null ? '/usr/bin/xargs' : '/bin/xargs';
  await assertRemoteExecutable(s, xargs, plan.spec.agent, 'xargs');
  await assertRemoteExecutable(s, plan.clientArgv[0] ?? '', plan.spec.agent, 'the client executable');
}

export async function writeLaunchFiles(
  s: SFTPWrapper,
  l: RemoteLayout,
  uid: number,
  argv: readonly string[],
  env: Record<string, string>,
): Promise<void> {
  const words = [l.envFile, ...argv];
  const { count, size } = computeManifestBudget(l.launcher, words);
  for (const f of [l.pidFile, l.exitFile]) await sftpRemoveIfPresent(s, f);
  await sftpWriteNewFile(
    s,
    l.envFile,
    Buffer.from(
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
      'utf8',
    ),
    uid,
  );
  await sftpWriteNewFile(s, l.manifest, Buffer.concat(words.map((w) => Buffer.from(`${w}\0`, 'utf8'))), uid, 0o400);
  await sftpWriteNewFile(s, l.xargsFile, Buffer.from(`${count} ${size}\n`), uid);
}

/**
 * Removes the launch files — the env file (the agent's secrets, until the launcher deletes it), the manifest and the
 * xargs counts — whether or not the client ever read them. The rest of the agent directory is the agent's work.
 */
export async function removeLaunchFiles(s: SFTPWrapper, l: RemoteLayout): Promise<void> {
  for (const f of [l.envFile, l.manifest, l.xargsFile]) await sftpRemoveIfPresent(s, f);
}
