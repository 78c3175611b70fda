/**
 * One verified SSH connection (ssh2). The host key is checked inside `hostVerifier`, so a host that fails
 * verification never sees our user name or a signature. No ssh-agent, no password, no ssh(1) binary.
 */
import { Client, type ClientChannel, type ConnectConfig, type SFTPWrapper } from 'ssh2';
import { RunnerError } from '../errors/runner-error';
import { hostKeyError, knownKeyTypesFor, verifyHostKey, type HostKeyVerdict } from './host-key-verify';
import type { KnownHostEntry } from './known-hosts';
import { fingerprintOf } from './known-hosts';

/** Where and as whom to connect; `privateKey` is secret (never described). */
export interface SshEndpoint {
  readonly user: string;
  readonly host: string;
  readonly port: number;
  readonly privateKey: Buffer;
  readonly knownHosts: readonly KnownHostEntry[];
  /** The operator's only opt-out (`opts.silently_accept_hosts: true`): every connect reports it. */
  readonly silentlyAcceptHosts: boolean;
}

/** SSH keepalive every 5 s; 3 unanswered → the connection is dropped (and reconnected by the pool). */
export const SSH_KEEPALIVE_INTERVAL_MS = 5000;
export const SSH_KEEPALIVE_COUNT_MAX = 3;
/** Handshake + auth must finish within this. */
export const SSH_READY_TIMEOUT_MS = 10000;

export interface SshConnection {
  /** The offered key's fingerprint and whether it was verified (false only with silently_accept_hosts). */
  readonly hostKey: { readonly fingerprint: string; readonly verified: boolean };
  /** Runs a constant command (never built from config values; docs/runners.md "ssh"). */
  exec(command: string): Promise<ClientChannel>;
  sftp(): Promise<SFTPWrapper>;
  isOpen(): boolean;
  onClose(listener: () => void): () => void;
  close(): void;
}

/** `user@host:port` for messages (the IPv6 literal in brackets). */
export function describeEndpoint(ep: Pick<SshEndpoint, 'user' | 'host' | 'port'>): string {
  const host = ep.host.includes(':') ? `[${ep.host}]` : ep.host;
  return `${ep.user}@${host}${ep.port === 22 ? '' : `:${ep.port}`}`;
}

function connectError(e: Error & { level?: string; code?: string }, target: string): RunnerError {
  if (e.level === 'client-authentication') {
    return new RunnerError('ssh_auth_failed', `${target} refused the key (publickey authentication failed).`, {
      details: { host: target },
    });
  }
  return new RunnerError('ssh_unreachable', `${target} could not be reached over SSH (${e.code ?? e.level ?? 'connection failed'}).`, {
    details: { host: target, ...(e.code === undefined ? {} : { reason: e.code }) },
  });
}

/** Opens and verifies one connection; rejects with a RunnerError (`ssh_host_key_*`, `ssh_auth_failed`, `ssh_unreachable`). */
export function openSshConnection(ep: SshEndpoint): Promise<SshConnection> {
  const target = describeEndpoint(ep);
  const client = new Client();
  let verdict: HostKeyVerdict | null = null;
  const preferred = knownKeyTypesFor(ep.knownHosts, ep.host, ep.port);
  return new Promise((resolve, reject) => {
    let settled = false;
    const listeners = new Set<() => void>();
    let open = false;
    client.on('ready', () => {
      open = true;
      settled = true;
      resolve(wrap(client, listeners, () => open, verdict));
    });
    client.on('error', (e: Error & { level?: string; code?: string }) => {
      if (settled) return; // after ready, 'close' follows and is what callers observe
      settled = true;
      if (verdict !== null && verdict.kind !== 'trusted' && !ep.silentlyAcceptHosts) reject(hostKeyError(verdict, target));
      else reject(connectError(e, target));
    });
    client.on('close', () => {
      open = false;
      if (!settled) {
        settled = true;
        reject(new RunnerError('ssh_unreachable', `${target} closed the connection during the handshake.`, { details: { host: target } }));
      }
      for (const l of [...listeners]) l();
    });
    client.connect({
      host: ep.host,
      port: ep.port,
      username: ep.user,
      privateKey: ep.privateKey,
      agent: undefined,
      tryKeyboard: false,
      keepaliveInterval: SSH_KEEPALIVE_INTERVAL_MS,
      keepaliveCountMax: SSH_KEEPALIVE_COUNT_MAX,
      readyTimeout: SSH_READY_TIMEOUT_MS,
      ...(preferred.length === 0 ? {} : { algorithms: { serverHostKey: { prepend: preferred } } as ConnectConfig['algorithms'] }),
      hostVerifier: (key: Buffer) => {
        verdict = verifyHostKey(ep.knownHosts, ep.host, ep.port, key);
        return verdict.kind === 'trusted' || ep.silentlyAcceptHosts;
      },
    });
    client.setNoDelay(true); // every SFTP request is a round trip: with Nagle + delayed ACK each costs ~40 ms more
  });
}

function wrap(client: Client, listeners: Set<() => void>, isOpen: () => boolean, verdict: HostKeyVerdict | null): SshConnection {
  let sftp: Promise<SFTPWrapper> | null = null;
  return {
    hostKey: { fingerprint: verdict?.fingerprint ?? fingerprintOf(Buffer.alloc(0)), verified: verdict?.kind === 'trusted' },
    exec: (command) =>
      new Promise((resolve, reject) => {
        client.exec(command, (err, channel) => (err === undefined || err === null ? resolve(channel) : reject(err)));
      }),
    sftp: () => {
      sftp ??= new Promise<SFTPWrapper>((resolve, reject) => {
        client.sftp((err, s) => (err === undefined || err === null ? resolve(s) : reject(err)));
      });
      sftp.catch(() => {
        sftp = null; // expected: a failed subsystem request is retried by the next caller
      });
      return sftp;
    },
    isOpen,
    onClose: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: () => client.end(),
  };
}
