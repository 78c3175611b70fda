/**
 * Where an ssh agent lives on the remote host: every name is generated from a fixed character set, so the
 * only command lines ever sent (`genswarms-ssh-run <manifest>`, `genswarms-ssh-ctl <verb> <manifest>`) carry
 * no config value and nothing a shell would interpret (docs/runners.md "ssh").
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { RunnerError } from '../errors/runner-error';
import { REMOTE_PATH_RE } from './ssh-options';
import { leaderWords, type RemoteLeader } from './remote-leader';

/** The state root below the ssh user's home (0700). */
export const REMOTE_ROOT_NAME = '.genswarms-ssh';
/** Constant scripts uploaded into `<root>/bin` (0500). */
export const REMOTE_SCRIPTS = ['genswarms-launch', 'genswarms-ssh-run', 'genswarms-ssh-ctl', 'genswarms-receipt-watch'] as const;

export interface RemoteLayout {
  readonly root: string;
  readonly bin: string;
  readonly launcher: string;
  readonly run: string;
  readonly ctl: string;
  /** The receipt watcher (run by the remote node; docs/receipts.md "Remote receipts: the push"). */
  readonly watch: string;
  /** `<root>/agents/<id>` (0700): the agent's state. */
  readonly dir: string;
  readonly manifest: string;
  readonly envFile: string;
  readonly xargsFile: string;
  /** Where an older genswarms-ssh-run recorded itself (the agent can rewrite it): removed at launch, never read. */
  readonly pidFile: string;
  readonly exitFile: string;
  /** HOME of the client (0700). */
  readonly home: string;
  /** The remote workspace (0700). */
  readonly workspace: string;
}

/** 32 hex chars naming the agent's remote directory: this server's home + swarm + agent, hashed. */
export function remoteAgentId(localHome: string, swarm: string, agent: string): string {
  return createHash('sha256').update(`${localHome}\0${swarm}\0${agent}`).digest('hex').slice(0, 32);
}

/** The layout below `remoteHome` (the ssh user's home as SFTP reports it); refuses a home outside the fixed set. */
export function remoteLayout(remoteHome: string, agentId: string): RemoteLayout {
  if (!REMOTE_PATH_RE.test(remoteHome) || path.posix.normalize(remoteHome) !== remoteHome || !/^[0-9a-f]{32}$/.test(agentId)) {
    throw new RunnerError(
      'ssh_remote_unsafe',
      'the remote home directory has characters outside [A-Za-z0-9._+/-]; refusing to name commands after it',
      {
        details: { reason: 'remote_home_charset' },
      },
    );
  }
  const root = path.posix.join(remoteHome, REMOTE_ROOT_NAME);
  const bin = path.posix.join(root, 'bin');
  const dir = path.posix.join(root, 'agents', agentId);
  return {
    root,
    bin,
    launcher: path.posix.join(bin, 'genswarms-launch'),
    run: path.posix.join(bin, 'genswarms-ssh-run'),
    ctl: path.posix.join(bin, 'genswarms-ssh-ctl'),
    watch: path.posix.join(bin, 'genswarms-receipt-watch'),
    dir,
    manifest: path.posix.join(dir, 'launch.argv'),
    envFile: path.posix.join(dir, 'env'),
    xargsFile: path.posix.join(dir, 'launch.xargs'),
    pidFile: path.posix.join(dir, 'pid'),
    exitFile: path.posix.join(dir, 'exit'),
    home: path.posix.join(dir, 'home'),
    workspace: path.posix.join(dir, 'workspace'),
  };
}

/** The constant command lines (docs/runners.md "ssh"). */
export function runCommand(l: RemoteLayout): string {
  return `${l.run} ${l.manifest}`;
}
/** `<node> genswarms-receipt-watch <workspace>`: `node` is the checked remote_node option (REMOTE_PATH_RE). */
export function watchCommand(l: RemoteLayout, node: string): string {
  if (!REMOTE_PATH_RE.test(node)) throw new RunnerError('validation_failed', 'remote_node must be an absolute path of [A-Za-z0-9._+/-]');
  return `${node} ${l.watch} ${l.workspace}`;
}
/** `genswarms-ssh-ctl <verb> <manifest> <pid> <starttime>`: the process is the host's record, digits only. */
export function ctlCommand(l: RemoteLayout, verb: 'status' | 'wait' | 'stop', leader: RemoteLeader): string {
  const [pid, startTime] = leaderWords(leader);
  return `${l.ctl} ${verb} ${l.manifest} ${pid} ${startTime}`;
}
