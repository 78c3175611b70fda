import { readFileSync } from 'node:fs';
import { normalizeToken, isLoopback, parseBindAddress } from '@genswarms/security';
import { findOnPath } from '../cli/which';
import { dockerSocketOf, engineGet } from './docker-engine';
import { firstLine, runProbe } from './run-probe';

/** `ok`: usable; `missing`: not installed / not configured (maybe fine); `problem`: present but unusable or unsafe. */
export type CheckStatus = 'ok' | 'missing' | 'problem';
export interface Check {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
}
type Env = Readonly<Record<string, string | undefined>>;

/** bwrap with usable user namespaces: a real trial run (`--unshare-user --unshare-net`, root fs read-only). */
export async function checkBwrap(env: Env): Promise<Check> {
  const bwrap = findOnPath('bwrap', env['PATH']);
  if (bwrap === undefined) return { name: 'bwrap', status: 'missing', detail: 'not installed (apt-get install bubblewrap)' };
  const trueBin = findOnPath('true', '/usr/bin:/bin') ?? '/bin/true';
  const run = await runProbe(bwrap, ['--unshare-user', '--unshare-net', '--ro-bind', '/', '/', trueBin]);
  if (run.kind === 'exited' && run.code === 0)
    return { name: 'bwrap', status: 'ok', detail: `${bwrap}: user and network namespaces usable` };
  const why = run.kind === 'error' ? run.reason : firstLine(run.output) || `exit ${String(run.code)}`;
  return {
    name: 'bwrap',
    status: 'problem',
    detail: `${bwrap}: trial sandbox failed (${why}); unprivileged user namespaces may be disabled`,
  };
}

/** socat ≥ 1.7.4 (certificate-name checks and SNI, docs/security.md); the CLI does not depend on libs/egress. */
export function isSocatRecentEnough(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major !== 1 ? major > 1 : minor !== 7 ? minor > 7 : patch >= 4;
}

export async function checkSocat(env: Env): Promise<Check> {
  const socat = findOnPath('socat', env['PATH']);
  if (socat === undefined)
    return { name: 'socat', status: 'missing', detail: 'not installed (apt-get install socat); needed for network: isolated' };
  const run = await runProbe(socat, ['-V']);
  const version = run.kind === 'exited' && run.code === 0 ? /socat version (\d+\.\d+\.\d+(?:\.\d+)?)/.exec(run.output)?.[1] : undefined;
  if (version === undefined) return { name: 'socat', status: 'problem', detail: `${socat}: could not read the version` };
  if (!isSocatRecentEnough(version))
    return { name: 'socat', status: 'problem', detail: `${socat}: version ${version} is older than 1.7.4 (no certificate-name checks)` };
  return { name: 'socat', status: 'ok', detail: `${socat}: version ${version} (>= 1.7.4)` };
}

export async function checkTmux(env: Env): Promise<Check> {
  const tmux = findOnPath('tmux', env['PATH']);
  if (tmux === undefined) return { name: 'tmux', status: 'missing', detail: 'not installed (apt-get install tmux); needed for TUI agents' };
  const run = await runProbe(tmux, ['-V']);
  if (run.kind === 'exited' && run.code === 0) return { name: 'tmux', status: 'ok', detail: `${tmux}: ${firstLine(run.output)}` };
  return { name: 'tmux', status: 'problem', detail: `${tmux} -V failed` };
}

/** GNU xargs with `-a` and `-x` (tmux panes replay NUL manifests with them, docs/runners.md): a real trial. */
export async function checkXargs(env: Env): Promise<Check> {
  const xargs = findOnPath('xargs', env['PATH']);
  if (xargs === undefined) return { name: 'xargs', status: 'missing', detail: 'not installed (apt-get install findutils)' };
  const version = await runProbe(xargs, ['--version']);
  const gnu = version.kind === 'exited' && version.code === 0 && version.output.includes('GNU findutils');
  const trueBin = findOnPath('true', '/usr/bin:/bin') ?? '/bin/true';
  const trial = await runProbe(xargs, ['-0', '-r', '-x', '-n', '1', '-s', '64', '-a', '/dev/null', '--', trueBin]);
  if (gnu && trial.kind === 'exited' && trial.code === 0)
    return {
      name: 'xargs',
      status: 'ok',
      detail: `${xargs}: ${firstLine(version.kind === 'exited' ? version.output : '')}, -a and -x work`,
    };
  return { name: 'xargs', status: 'problem', detail: `${xargs} is not GNU xargs with -a/-x (tmux agents need it)` };
}

export async function checkNixStore(env: Env): Promise<Check> {
  const nix = findOnPath('nix-store', env['PATH']);
  if (nix === undefined)
    return { name: 'nix-store', status: 'missing', detail: 'not installed (needed only for config.client_source: host_nix)' };
  const run = await runProbe(nix, ['--version']);
  return run.kind === 'exited' && run.code === 0
    ? { name: 'nix-store', status: 'ok', detail: firstLine(run.output) }
    : { name: 'nix-store', status: 'problem', detail: 'nix-store --version failed' };
}

/** Docker engine reachable over a local unix socket (the docker runner refuses remote engines, docs/runners.md). */
export async function checkDocker(env: Env): Promise<Check> {
  const engine = dockerSocketOf(env);
  if (engine.kind === 'remote')
    return {
      name: 'docker',
      status: 'problem',
      detail: `DOCKER_HOST is a remote engine (${engine.scheme}://…); the docker runner refuses it`,
    };
  const answer = await engineGet(engine.socketPath, '/_ping');
  if (answer.kind === 'answered' && answer.status === 200)
    return { name: 'docker', status: 'ok', detail: `engine reachable on ${engine.socketPath} (local)` };
  const failure = answer.kind === 'failed' ? answer.why : `ping answered ${String(answer.status)}`;
  return { name: 'docker', status: 'missing', detail: `no engine on ${engine.socketPath} (${failure})` };
}

export function checkToken(env: Env): Check {
  return normalizeToken(env['GENSWARMS_API_TOKEN']) === undefined
    ? { name: 'GENSWARMS_API_TOKEN', status: 'missing', detail: 'unset: the server serves loopback callers only' }
    : { name: 'GENSWARMS_API_TOKEN', status: 'ok', detail: 'set (every caller must present it)' };
}

export function checkBind(env: Env): Check {
  try {
    const addr = parseBindAddress(env['GENSWARMS_HTTP_IP']);
    if (isLoopback(addr)) return { name: 'bind', status: 'ok', detail: `${addr} (loopback)` };
    const tokenSet = normalizeToken(env['GENSWARMS_API_TOKEN']) !== undefined;
    return {
      name: 'bind',
      status: tokenSet ? 'ok' : 'problem',
      detail: `${addr} (not loopback${tokenSet ? '' : '; set GENSWARMS_API_TOKEN or remote callers are refused'})`,
    };
  } catch (err) {
    return { name: 'bind', status: 'problem', detail: `GENSWARMS_HTTP_IP is invalid: ${(err as Error).message}` };
  }
}

/** Where Linux publishes the pseudo-terminal limit and usage (TUI agents each hold one pty). */
const PTY_MAX_FILE = '/proc/sys/kernel/pty/max';
const PTY_NR_FILE = '/proc/sys/kernel/pty/nr';
/** Fewer free ptys than this is flagged: a swarm of TUI agents would start failing. */
const PTY_LOW_FREE = 64;

/** The pty limit (`kernel.pty.max`) and how many are in use: tmux panes and local TUI clients need one each. */
export function checkPty(read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Check {
  let max: number;
  let used: number;
  try {
    max = Number(read(PTY_MAX_FILE).trim());
    used = Number(read(PTY_NR_FILE).trim());
  } catch {
    // expected: unreadable pty counters are the 'missing' probe result
    return { name: 'pty', status: 'missing', detail: `${PTY_MAX_FILE} is not readable (not Linux?)` };
  }
  if (!Number.isInteger(max) || !Number.isInteger(used)) return { name: 'pty', status: 'problem', detail: 'could not parse the pty limit' };
  const free = max - used;
  return {
    name: 'pty',
    status: free < PTY_LOW_FREE ? 'problem' : 'ok',
    detail: `${used} of ${max} in use (${free} free; each TUI agent holds one)`,
  };
}

/** util-linux setpriv: local agents and egress forwarders die with the server only when it exists. */
export function checkSetpriv(env: Env): Check {
  const setpriv = findOnPath('setpriv', env['PATH']);
  return setpriv === undefined
    ? { name: 'setpriv', status: 'missing', detail: 'not installed (util-linux): local agents would outlive a crashed server' }
    : { name: 'setpriv', status: 'ok', detail: `${setpriv}: local agents and forwarders die with the server` };
}
