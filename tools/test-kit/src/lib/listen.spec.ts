import { createServer, request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { closeServer, listen } from './listen';

describe('listen / closeServer', () => {
  it('listens on a kernel-chosen loopback port and closes despite a keep-alive client', async () => {
    const server = createServer((_req, res) => res.end('hi'));
    const port = await listen(server);
    expect(port).toBeGreaterThan(0);
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent: false, headers: { connection: 'keep-alive' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(body).toBe('hi');
    await closeServer(server);
    expect(server.listening).toBe(false);
    await closeServer(server);
  });

  it('rejects when the host cannot be bound', async () => {
    await expect(listen(createNetServer(), '192.0.2.1')).rejects.toThrow(/EADDRNOTAVAIL/);
  });
});
