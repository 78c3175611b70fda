import type { AddressInfo, Server as NetServer } from 'node:net';

/** Starts `server` on port 0 of `host` (loopback by default) and resolves to the port the kernel chose. */
export function listen(server: NetServer, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(0, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Closes `server`, dropping open connections (keep-alive sockets would hold `close` open). */
export function closeServer(server: NetServer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    const http = server as NetServer & { closeAllConnections?: () => void };
    server.close((err) => (err === undefined ? resolve() : reject(err)));
    http.closeAllConnections?.();
  });
}
