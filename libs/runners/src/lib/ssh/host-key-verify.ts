/**
 * Host-key verification of the ssh backend (docs/security.md "ssh trust model"): the offered key must be
 * listed for the host (or its `[host]:port` name) in known_hosts and not `@revoked`. Nothing is sent to a
 * host that fails: the verdict is computed inside ssh2's `hostVerifier`, before authentication.
 */
import { promises as fsp } from 'node:fs';
import { RunnerError } from '../errors/runner-error';
import {
  entryMatchesName,
  fingerprintOf,
  KNOWN_HOSTS_MAX_BYTES,
  knownHostsName,
  parseKnownHosts,
  type KnownHostEntry,
} from './known-hosts';

export type HostKeyVerdict =
  | { readonly kind: 'trusted'; readonly fingerprint: string }
  | { readonly kind: 'unknown'; readonly fingerprint: string }
  | { readonly kind: 'mismatch'; readonly fingerprint: string; readonly expected: readonly string[] }
  | { readonly kind: 'revoked'; readonly fingerprint: string };

/** Decides whether `offered` (a wire-format key blob) may be trusted for `host`:`port`. Pure. */
export function verifyHostKey(entries: readonly KnownHostEntry[], host: string, port: number, offered: Buffer): HostKeyVerdict {
  const name = knownHostsName(host, port);
  const fingerprint = fingerprintOf(offered);
  const forHost = entries.filter((e) => entryMatchesName(e, name));
  if (forHost.some((e) => e.marker === 'revoked' && e.key.equals(offered))) return { kind: 'revoked', fingerprint };
  const plain = forHost.filter((e) => e.marker === 'none');
  if (plain.some((e) => e.key.equals(offered))) return { kind: 'trusted', fingerprint };
  if (plain.length === 0) return { kind: 'unknown', fingerprint };
  return { kind: 'mismatch', fingerprint, expected: [...new Set(plain.map((e) => fingerprintOf(e.key)))] };
}

/** Key types known for the host, in file order: offered first to the server so a known key is the one negotiated. */
export function knownKeyTypesFor(entries: readonly KnownHostEntry[], host: string, port: number): string[] {
  const name = knownHostsName(host, port);
  const types = entries.filter((e) => e.marker === 'none' && entryMatchesName(e, name)).map((e) => e.keyType);
  return [...new Set(types)];
}

/** The refusal for a failed verdict: codes of docs/runners.md "ssh"; details hold fingerprints, never key material. */
export function hostKeyError(verdict: Exclude<HostKeyVerdict, { kind: 'trusted' }>, target: string): RunnerError {
  switch (verdict.kind) {
    case 'unknown':
      return new RunnerError(
        'ssh_host_key_unknown',
        `The host key of ${target} is not in known_hosts (offered ${verdict.fingerprint}); run genswarms ssh trust ${target} to pin it.`,
        { details: { host: target, fingerprint: verdict.fingerprint } },
      );
    case 'mismatch':
      return new RunnerError(
        'ssh_host_key_mismatch',
        `The host key of ${target} CHANGED (offered ${verdict.fingerprint}, known ${verdict.expected.join(', ')}): connection aborted (possible MITM).`,
        { details: { host: target, fingerprint: verdict.fingerprint, expected: verdict.expected } },
      );
    case 'revoked':
      return new RunnerError('ssh_host_key_revoked', `The host key of ${target} (${verdict.fingerprint}) is @revoked in known_hosts.`, {
        details: { host: target, fingerprint: verdict.fingerprint },
      });
  }
}

/**
 * Reads known_hosts files (missing ones are skipped). Fail closed: a file that exists but is not a regular
 * file, is larger than KNOWN_HOSTS_MAX_BYTES or cannot be read refuses the connection (`ssh_known_hosts_unreadable`).
 */
export async function loadKnownHosts(files: readonly string[]): Promise<KnownHostEntry[]> {
  const out: KnownHostEntry[] = [];
  for (const file of files) {
    let text: string;
    try {
      const handle = await fsp.open(file, 'r');
      try {
        const st = await handle.stat();
        if (!st.isFile() || st.size > KNOWN_HOSTS_MAX_BYTES) throw new Error('not a regular file of bounded size');
        text = (await handle.readFile()).subarray(0, KNOWN_HOSTS_MAX_BYTES).toString('utf8');
      } finally {
        await handle.close();
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new RunnerError('ssh_known_hosts_unreadable', `known_hosts file ${file} cannot be used (fail-closed: no connection).`, {
        details: { file },
        cause: e,
      });
    }
    out.push(...parseKnownHosts(text).entries);
  }
  return out;
}
