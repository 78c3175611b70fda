/**
 * One connection per endpoint, shared by every agent on that host (many channels), with bounded reconnect.
 * Per-instance state (no module singleton): the ssh runner owns one pool.
 */
import { createHash } from 'node:crypto';
import { RunnerError } from '../errors/runner-error';
import { describeEndpoint, openSshConnection, type SshConnection, type SshEndpoint } from './ssh-connection';

/** Reconnect attempts after a drop before sessions are marked `failed` with `ssh_disconnected`. */
export const SSH_RECONNECT_ATTEMPTS = 3;
/** Delay before reconnect attempt n (1-based): base × 2^(n-1). */
export const SSH_RECONNECT_BASE_MS = 250;

/** Codes that another attempt cannot fix: verification and authentication refusals are final. */
const FINAL_CODES = new Set(['ssh_host_key_unknown', 'ssh_host_key_mismatch', 'ssh_host_key_revoked', 'ssh_auth_failed']);

export interface SshPoolOptions {
  readonly open?: (ep: SshEndpoint) => Promise<SshConnection>;
  readonly attempts?: number;
  readonly baseDelayMs?: number;
  /** Told at every successful connect (the runner emits the silently_accept_hosts warning from it). */
  readonly onConnect?: (ep: SshEndpoint, conn: SshConnection) => void;
}

export class SshPool {
  private readonly live = new Map<string, Promise<SshConnection>>();
  private closed = false;

  constructor(private readonly opts: SshPoolOptions = {}) {}

  /** The live connection for the endpoint, or a new one (single-flight; `attempts` tries with backoff). */
  get(ep: SshEndpoint): Promise<SshConnection> {
    if (this.closed) return Promise.reject(new RunnerError('runner_error', 'the ssh pool is closed'));
    const key = poolKey(ep);
    const existing = this.live.get(key);
    if (existing !== undefined) {
      return existing.then((c) => (c.isOpen() ? c : this.reconnect(key, ep, existing)));
    }
    return this.reconnect(key, ep, undefined);
  }

  private reconnect(key: string, ep: SshEndpoint, stale: Promise<SshConnection> | undefined): Promise<SshConnection> {
    const current = this.live.get(key);
    if (current !== undefined && current !== stale) return current;
    const attempt = this.connectWithRetry(ep);
    this.live.set(key, attempt);
    attempt.then(
      (conn) => {
        conn.onClose(() => {
          if (this.live.get(key) === attempt) this.live.delete(key);
        });
      },
      () => {
        // expected: the caller of get() receives this rejection; here we only forget the failed attempt
        if (this.live.get(key) === attempt) this.live.delete(key);
      },
    );
    return attempt;
  }

  private async connectWithRetry(ep: SshEndpoint): Promise<SshConnection> {
    const attempts = this.opts.attempts ?? SSH_RECONNECT_ATTEMPTS;
    const base = this.opts.baseDelayMs ?? SSH_RECONNECT_BASE_MS;
    let last: unknown;
    for (let n = 1; n <= attempts; n += 1) {
      try {
        const conn = await (this.opts.open ?? openSshConnection)(ep);
        if (this.closed) {
          conn.close();
          throw new RunnerError('runner_error', 'the ssh pool is closed');
        }
        this.opts.onConnect?.(ep, conn);
        return conn;
      } catch (e) {
        last = e;
        if (e instanceof RunnerError && FINAL_CODES.has(e.code)) throw e;
        if (n < attempts) await new Promise((r) => setTimeout(r, base * 2 ** (n - 1)));
      }
    }
    throw last instanceof RunnerError
      ? last
      : new RunnerError('ssh_unreachable', `${describeEndpoint(ep)} could not be reached.`, { cause: last });
  }

  /** Closes every connection (server shutdown / detach: remote agents keep running, nohup'd by setsid). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.live.values()];
    this.live.clear();
    for (const p of all) {
      try {
        (await p).close();
      } catch {
        // expected: a connection that never opened has nothing to close
      }
    }
  }
}

/** Connections are shared only for the same user, host, port, key and trusted host keys (anything else is another identity). */
function poolKey(ep: SshEndpoint): string {
  const keyId = createHash('sha256').update(ep.privateKey).digest('hex');
  // another agent's known_hosts may trust a different key for the same host: it never rides this verification
  const trust = createHash('sha256');
  for (const e of ep.knownHosts) trust.update(`${e.marker}\0${e.patterns.join(',')}\0${e.key.toString('base64')}\n`);
  return `${describeEndpoint(ep)}#${keyId}#${trust.digest('hex')}#${ep.silentlyAcceptHosts ? 'unverified' : 'verified'}`;
}
