import { createServer } from 'node:net';

/**
 * A loopback TCP port that was free a moment ago. For a process that must be told its port up front
 * (the server refuses `PORT=0`); another process may take it before the caller binds, so callers go
 * through {@link onFreshPort}, or pass the same port again after a kill -9 on purpose.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr !== null ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Runs `start` on a {@link freePort}; when another process took that port in between (EADDRINUSE in the
 * error's text), tries again on a new one, at most `tries` times; any other error is thrown at once.
 */
export async function onFreshPort<T>(start: (port: number) => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await freePort());
    } catch (err) {
      if (attempt >= tries || !String(err instanceof Error ? err.message : err).includes('EADDRINUSE')) throw err;
    }
  }
}
