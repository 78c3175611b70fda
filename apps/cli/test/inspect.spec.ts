/** `genswarms inspect <swarm> <agent>`: the isolation block of the agent status, as lines or JSON (a real HTTP server). */
import { isolationLines } from '../src/commands/inspect';
import { captureServer, cli } from './support';

const ISOLATION = {
  verified_at: '2026-12-01T06:00:00.000Z',
  pid: 4242,
  uid: 200001,
  gid: 200001,
  namespaces: ['ipc', 'mnt', 'net', 'pid', 'user', 'uts'],
  no_new_privs: true,
  seccomp: 'filter',
  network: 'loopback',
  egress: '127.0.0.1:9',
  limits: { memory_bytes: 268435456, pids: 64, cpu: 0.5 },
  mounts: { workspace: 'rw', state_dir: 'rw', host_root_visible: false },
  bypass_flags: [],
  differences: [],
};

describe('genswarms inspect', () => {
  let server: Awaited<ReturnType<typeof captureServer>> | undefined;
  afterEach(async () => server?.close());

  it('prints the isolation the live process has, and asks GET /api/swarms/<s>/agents/<a>', async () => {
    const paths: string[] = [];
    server = await captureServer((p) => {
      paths.push(p);
      return { status: 200, body: { name: 'w', swarm: 'demo', isolation: ISOLATION } };
    });
    const r = await cli(['inspect', 'demo', 'w'], { GENSWARMS_URL: server.url });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(paths).toEqual(['/api/swarms/demo/agents/w']);
    expect(r.stdout.split('\n').slice(0, 8)).toEqual([
      'demo/w: isolation of pid 4242 (uid 200001, gid 200001), read 2026-12-01T06:00:00.000Z',
      '  namespaces not shared with the server: ipc mnt net pid user uts',
      '  network: loopback (egress pinned to 127.0.0.1:9)',
      '  no_new_privs: yes, seccomp: filter',
      '  limits: memory 256 MiB, pids 64, cpu 0.5',
      '  mounts: workspace rw, state dir rw, host root hidden',
      '  bypass flags: none',
      '  matches its plan',
    ]);
  });

  it('--json prints the block alone', async () => {
    server = await captureServer(() => ({ status: 200, body: { isolation: ISOLATION } }));
    const r = await cli(['inspect', 'demo', 'w', '--json'], { GENSWARMS_URL: server.url });
    expect(JSON.parse(r.stdout)).toEqual(ISOLATION);
  });

  it('names a mismatch and an unchecked agent', () => {
    const mismatch = { ...ISOLATION, network: 'host', differences: [{ field: 'network', expected: 'loopback', actual: 'host' }] };
    expect(isolationLines('s', 'a', mismatch).at(-1)).toBe(
      '  MISMATCH (needs attention: isolation_mismatch): network expected loopback, is host',
    );
    expect(isolationLines('s', 'a', null)).toEqual([
      's/a: isolation not checked (the agent is not running, or its runner has no live check: ssh, apple_container, mock)',
    ]);
  });
});
