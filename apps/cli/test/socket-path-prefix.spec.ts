/**
 * A server behind a path prefix (GENSWARMS_URL=http://h/gs): the streaming commands reach socket.io at
 * `/gs/socket.io`, namespace `/swarm` (not a namespace `/gs/swarm`), through the client's connectSwarmSocket.
 */
import { cliLive } from './support';
import type { FixtureServer } from './fixture-server';
import { startFixtureServer } from './fixture-server';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer(undefined, '/gs/socket.io');
});
afterEach(async () => server.close());

it('logs -f joins through <prefix>/socket.io and prints the pushed entry', async () => {
  const entry = {
    id: 1,
    timestamp: 't1',
    level: 'info',
    agent: 'planner',
    event_type: 'turn_completed',
    message: 'via prefix',
    metadata: {},
  };
  server.setSocketScript({ knownSwarms: ['demo'], onSubscribeLogs: (s) => s.emit('log_entry', entry) });
  const run = cliLive(['logs', 'demo', 'planner', '-f'], { GENSWARMS_URL: `${server.url}/gs` });
  await run.waitForStdout(/via prefix/);
  run.interrupt();
  const r = await run.done;
  expect(r.code).toBe(0);
  expect(server.handshakes[0]?.emitted.map((e) => e.event)).toEqual(['join', 'subscribe_logs']);
});
