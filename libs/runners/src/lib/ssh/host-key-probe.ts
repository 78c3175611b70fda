/**
 * Fetches the host key a server offers, without authenticating: the ssh2 handshake stops in `hostVerifier`
 * (we refuse every key there), so no user name, key or signature is ever sent (docs/security.md "ssh trust model").
 */
import { Client } from 'ssh2';

/** How long the key exchange may take (ms). */
export const HOST_KEY_PROBE_TIMEOUT_MS = 10000;

export type HostKeyProbe = { readonly kind: 'ok'; readonly key: Buffer } | { readonly kind: 'unreachable'; readonly reason: string };

export function probeHostKey(host: string, port: number, timeoutMs = HOST_KEY_PROBE_TIMEOUT_MS): Promise<HostKeyProbe> {
  return new Promise((resolve) => {
    const client = new Client();
    let key: Buffer | null = null;
    let settled = false;
    const settle = (r: HostKeyProbe): void => {
      if (settled) return;
      settled = true;
      client.end();
      resolve(r);
    };
    client.on('error', (e: Error & { code?: string }) =>
      settle(key === null ? { kind: 'unreachable', reason: e.code ?? e.message } : { kind: 'ok', key }),
    );
    client.on('close', () =>
      settle(key === null ? { kind: 'unreachable', reason: 'closed before the key exchange' } : { kind: 'ok', key }),
    );
    client.connect({
      host,
      port,
      username: 'genswarms-host-key-probe',
      readyTimeout: timeoutMs,
      tryKeyboard: false,
      hostVerifier: (offered: Buffer) => {
        key = Buffer.from(offered);
        return false; // stop here: nothing after the key exchange is sent
      },
    });
  });
}
