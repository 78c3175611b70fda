/**
 * The remote agent's identity as the host records it: the pid and start time of the process group leader that
 * `genswarms-ssh-run` prints on its run channel before the client exists. The agent can write every file of its
 * agent directory, so nothing read from there decides what `genswarms-ssh-ctl` looks at or signals.
 */
import type { ClientChannel } from 'ssh2';
import { RunnerError } from '../errors/runner-error';

/** How long the run script may take to report its group leader (ms). */
export const SSH_LEADER_WAIT_MS = 10_000;
/** Output before the report (a login shell's rc files may print) is skipped up to this many bytes. */
const LEADER_SEARCH_MAX_BYTES = 4096;
const LEADER_LINE_RE = /^genswarms-ssh-run leader ([1-9][0-9]{0,9}) ([0-9]{1,20})$/;
const PID_RE = /^[1-9][0-9]{0,9}$/;
const START_TIME_RE = /^[0-9]{1,20}$/;

/** `pid`: the group leader (the run script, or the login shell that started it); `startTime`: /proc stat field 22. */
export interface RemoteLeader {
  readonly pid: number;
  readonly startTime: string;
}

/** The two words of a ctl command line: refuses anything but a positive pid and a decimal start time. */
export function leaderWords(leader: RemoteLeader): readonly [string, string] {
  const pid = String(leader.pid);
  if (!Number.isSafeInteger(leader.pid) || !PID_RE.test(pid) || !START_TIME_RE.test(leader.startTime)) {
    throw new RunnerError('validation_failed', 'the recorded remote process is not a pid and a start time');
  }
  return [pid, leader.startTime];
}

/**
 * Reads the run script's report from the run channel: the first line `genswarms-ssh-run leader <pid> <starttime>`.
 * It is written before the client starts (whose output goes to client.log), so no agent wrote anything before it;
 * lines ahead of it come from the login shell. Rejects (`start_failed`) when the channel ends, no report came within
 * LEADER_SEARCH_MAX_BYTES, or within `timeoutMs`.
 */
export function readRemoteLeader(channel: ClientChannel, timeoutMs = SSH_LEADER_WAIT_MS): Promise<RemoteLeader> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (outcome: RemoteLeader | string): void => {
      clearTimeout(timer);
      channel.off('data', onData);
      channel.off('close', onClose);
      if (typeof outcome !== 'string') resolve(outcome);
      else reject(new RunnerError('start_failed', `the remote client did not start (${outcome})`));
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n')) {
        const m = LEADER_LINE_RE.exec(text.slice(0, end));
        if (m !== null) {
          finish({ pid: Number(m[1]), startTime: m[2] ?? '' });
          return;
        }
        text = text.slice(end + 1);
      }
      if (text.length > LEADER_SEARCH_MAX_BYTES) finish('the run script reported no process');
    };
    const onClose = (): void => finish('the run channel closed first');
    const timer = setTimeout(() => finish('no process reported in time'), timeoutMs);
    channel.on('data', onData);
    channel.on('close', onClose);
  });
}
