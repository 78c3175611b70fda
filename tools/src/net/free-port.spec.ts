import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { freePort, onFreshPort } from './free-port';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

describe('freePort / onFreshPort', () => {
  test('freePort answers a port a server can bind', async () => {
    const srv = await listenOn(await freePort());
    await new Promise<void>((r) => srv.close(() => r()));
  });

  test('a port taken between the probe and the bind is retried on a new port', async () => {
    const taken: Server[] = [];
    const seen: number[] = [];
    const srv = await onFreshPort(async (port) => {
      seen.push(port);
      if (seen.length === 1) taken.push(await listenOn(port)); // someone else gets there first
      return listenOn(port);
    });
    expect(seen).toHaveLength(2);
    for (const s of [srv, ...taken]) await new Promise<void>((r) => s.close(() => r()));
  });

  test('other errors and the last attempt are thrown', async () => {
    await expect(onFreshPort(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    let calls = 0;
    await expect(
      onFreshPort(() => {
        calls += 1;
        return Promise.reject(new Error('listen EADDRINUSE'));
      }, 3),
    ).rejects.toThrow('EADDRINUSE');
    expect(calls).toBe(3);
  });
});
