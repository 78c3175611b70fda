/**
 * `doctor --ssh user@host[:port]`: is the host reachable, is its key known / unknown / changed / revoked, and (with a key
 * and a trusted host key only) are xargs, tmux and bwrap present on it. Nothing is sent to a host whose key is not trusted.
 */
import * as path from 'node:path';
import { parseSshTarget } from '@genswarms/ir-gate';
import { isRunnerError, loadKnownHosts, openSshConnection, probeHostKey, readPrivateKey, verifyHostKey } from '@genswarms/runners';
import type { SshConnection } from '@genswarms/runners';
import { CliError, EXIT } from '../cli/exit-codes';
import type { Check } from '../doctor/probes';
import { homePath } from '../daemon/home';
import { defaultKnownHostsFile } from './known-hosts-file';

type SFTPWrapper = Awaited<ReturnType<SshConnection['sftp']>>;

/** Where the remote binaries are looked for (absolute: the remote PATH is never consulted). */
const REMOTE_BIN_DIRS = ['/usr/bin', '/bin', '/usr/local/bin'];
const REMOTE_BINARIES = ['xargs', 'tmux', 'bwrap'] as const;

export interface DoctorSshInput {
  readonly target: string;
  /** known_hosts files (default: $GENSWARMS_HOME/known_hosts, ~/.ssh/known_hosts). */
  readonly knownHosts: readonly string[];
  /** The private key for the remote checks; absent → those checks are skipped (said so). */
  readonly keyPath?: string;
}

function remoteExecutable(s: SFTPWrapper, file: string): Promise<boolean> {
  return new Promise((resolve) =>
    s.stat(file, (e, st) => resolve(e === undefined || e === null ? st.isFile() && (st.mode & 0o111) !== 0 : false)),
  );
}

async function remoteBinaryChecks(s: SFTPWrapper): Promise<Check[]> {
  const out: Check[] = [];
  for (const name of REMOTE_BINARIES) {
    let found: string | undefined;
    for (const dir of REMOTE_BIN_DIRS) {
      if (await remoteExecutable(s, path.posix.join(dir, name))) {
        found = path.posix.join(dir, name);
        break;
      }
    }
    out.push({
      name: `ssh: remote ${name}`,
      status: found === undefined ? 'missing' : 'ok',
      detail: found ?? `not in ${REMOTE_BIN_DIRS.join(', ')}`,
    });
  }
  return out;
}

export async function checkSshHost(input: DoctorSshInput, uid: number): Promise<Check[]> {
  const t = parseSshTarget(input.target, { allowPort: true });
  if (t.kind === 'invalid') throw new CliError('invalid_host', `--ssh: ${t.reason}`, EXIT.usage);
  const { user, host } = t.value;
  const port = t.value.port ?? 22;
  const probe = await probeHostKey(host, port);
  if (probe.kind === 'unreachable') return [{ name: 'ssh: reachable', status: 'problem', detail: `${host}:${port} ${probe.reason}` }];
  const checks: Check[] = [{ name: 'ssh: reachable', status: 'ok', detail: `${host}:${port} answers SSH` }];
  const entries = await loadKnownHosts(input.knownHosts);
  const verdict = verifyHostKey(entries, host, port, probe.key);
  const detail: Record<typeof verdict.kind, string> = {
    trusted: `known (${verdict.fingerprint})`,
    unknown: `unknown (${verdict.fingerprint}): run genswarms ssh trust ${input.target}`,
    mismatch: `CHANGED (offered ${verdict.fingerprint}; possible MITM): connections are refused`,
    revoked: `@revoked (${verdict.fingerprint}): connections are refused`,
  };
  checks.push({ name: 'ssh: host key', status: verdict.kind === 'trusted' ? 'ok' : 'problem', detail: detail[verdict.kind] });
  if (verdict.kind !== 'trusted') return checks;
  if (input.keyPath === undefined) {
    checks.push({
      name: 'ssh: remote binaries',
      status: 'missing',
      detail: 'not checked: pass --ssh-key <private key> to log in and look',
    });
    return checks;
  }
  let conn: SshConnection;
  try {
    conn = await openSshConnection({
      user,
      host,
      port,
      privateKey: await readPrivateKey(input.keyPath, uid),
      knownHosts: entries,
      silentlyAcceptHosts: false,
    });
  } catch (e) {
    if (!isRunnerError(e)) throw e;
    checks.push({ name: 'ssh: login', status: 'problem', detail: `${e.code}: ${e.message}` });
    return checks;
  }
  checks.push({ name: 'ssh: login', status: 'ok', detail: `${user}@${host}:${port} accepted the key` });
  try {
    checks.push(...(await remoteBinaryChecks(await conn.sftp())));
  } finally {
    conn.close();
  }
  return checks;
}

/** The `doctor --ssh` lines: known_hosts as the ssh backend reads it by default ($GENSWARMS_HOME, then $HOME/.ssh). */
export function doctorSshChecks(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  opts: { readonly ssh?: string; readonly sshKey?: string },
): Promise<Check[]> {
  if (opts.ssh === undefined) return Promise.resolve([]);
  const userHome = env['HOME'];
  const knownHosts = [
    defaultKnownHostsFile(homePath(env, cwd)),
    ...(userHome === undefined || !path.isAbsolute(userHome) ? [] : [path.join(userHome, '.ssh', 'known_hosts')]),
  ];
  const keyPath = opts.sshKey === undefined ? undefined : path.resolve(cwd, opts.sshKey);
  return checkSshHost({ target: opts.ssh, knownHosts, ...(keyPath === undefined ? {} : { keyPath }) }, process.getuid?.() ?? 0);
}
