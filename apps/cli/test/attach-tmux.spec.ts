import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli, tempDir } from './support';
import type { FixtureServer } from './fixture-server';
import { startFixtureServer } from './fixture-server';

const ECHO_ARGV = resolve(__dirname, '..', '..', '..', 'tools', 'bin', 'echo-argv.js');
const TMUX = ['/usr/bin/tmux', '/bin/tmux', '/usr/local/bin/tmux'].find((p) => spawnSync(p, ['-V']).status === 0);
const describeTmux = TMUX === undefined ? describe.skip : describe;
if (TMUX === undefined) console.warn('SKIPPING attach (tmux) specs: tmux is not installed (apt-get install tmux)');

describeTmux('attach to a tmux agent', () => {
  const dir = tempDir('gs-cli-attach-');
  const home = join(dir.path, 'home');
  const sock = join(home, 'tmux', 'tmux.sock');
  const fakeBin = join(dir.path, 'bin');
  let server: FixtureServer;

  beforeAll(async () => {
    mkdirSync(join(home, 'tmux'), { recursive: true, mode: 0o700 });
    // A real tmux server with the swarm's session and the agent's window, as the tmux runner makes them.
    const made = spawnSync(TMUX ?? 'tmux', ['-S', sock, 'new-session', '-d', '-s', 'demo', '-n', 'planner', 'sleep', '600'], {
      env: { PATH: '/usr/bin:/bin', TERM: 'xterm' },
    });
    expect(made.status).toBe(0);
    mkdirSync(fakeBin);
    symlinkSync(ECHO_ARGV, join(fakeBin, 'tmux'));
    server = await startFixtureServer(() => ({ status: 200, body: { name: 'planner', backend: 'tmux', state: 'idle' } }));
  });
  afterAll(async () => {
    spawnSync(TMUX ?? 'tmux', ['-S', sock, 'kill-server']);
    await server.close();
    dir.cleanup();
  });

  test.each<[string[], string[]]>([
    [[], ['-S', sock, 'attach-session', '-r', '-t', '=demo:=planner']],
    [['--write'], ['-S', sock, 'attach-session', '-t', '=demo:=planner']],
  ])('%j runs tmux with the exact docs/cli.md argv (read-only unless --write)', async (flags, argv) => {
    // echo-argv stands in for the tmux client binary: it prints the words it received.
    const r = await cli(['attach', 'demo', 'planner', ...flags], {
      GENSWARMS_URL: server.url,
      GENSWARMS_HOME: home,
      PATH: `${fakeBin}:/usr/bin:/bin`,
      GENSWARMS_API_TOKEN: 'never-passed',
    });
    expect(r.code).toBe(0);
    const seen = JSON.parse(r.stdout) as { argv: string[] };
    expect(seen.argv).toEqual(argv);
  });

  it('runs the real tmux client against the real socket (no terminal here → tmux refuses, exit 1)', async () => {
    const r = await cli(['attach', 'demo', 'planner'], { GENSWARMS_URL: server.url, GENSWARMS_HOME: home, PATH: '/usr/bin:/bin' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/terminal/);
  });

  it("attaches through the socket of the tmux server that holds the agent's window (tmux-<k>.sock)", async () => {
    // docs/runners.md "tmux servers": the runner spreads windows over tmux.sock, tmux-1.sock, …
    const sock1 = join(home, 'tmux', 'tmux-1.sock');
    const made = spawnSync(TMUX ?? 'tmux', ['-S', sock1, 'new-session', '-d', '-s', 'demo', '-n', 'coder', 'sleep', '600'], {
      env: { PATH: '/usr/bin:/bin', TERM: 'xterm' },
    });
    expect(made.status).toBe(0);
    // a tmux stand-in: `has-session` is asked of the real tmux, any other command prints its argv
    const probeBin = join(dir.path, 'probe-bin');
    mkdirSync(probeBin);
    writeFileSync(
      join(probeBin, 'tmux'),
      [
        '#!/usr/bin/node',
        "const { spawnSync } = require('node:child_process');",
        'const argv = process.argv.slice(2);',
        `if (argv[2] === 'has-session') process.exit(spawnSync(${JSON.stringify(TMUX)}, argv, { stdio: 'ignore' }).status ?? 1);`,
        'process.stdout.write(JSON.stringify({ argv }));',
      ].join('\n'),
      { mode: 0o755 },
    );
    try {
      for (const [agent, socket] of [
        ['coder', sock1],
        ['planner', sock],
      ] as const) {
        const r = await cli(['attach', 'demo', agent], {
          GENSWARMS_URL: server.url,
          GENSWARMS_HOME: home,
          PATH: `${probeBin}:/usr/bin:/bin`,
        });
        expect(r.code).toBe(0);
        expect((JSON.parse(r.stdout) as { argv: string[] }).argv).toEqual(['-S', socket, 'attach-session', '-r', '-t', `=demo:=${agent}`]);
      }
    } finally {
      spawnSync(TMUX ?? 'tmux', ['-S', sock1, 'kill-server']);
    }
  });

  it('exits 1 with not_server_host when the tmux socket is not on this host', async () => {
    const r = await cli(['attach', 'demo', 'planner'], {
      GENSWARMS_URL: server.url,
      GENSWARMS_HOME: join(dir.path, 'elsewhere'),
      PATH: '/usr/bin:/bin',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^genswarms: not_server_host: /);
  });

  it('refuses a regular file planted where the socket should be', async () => {
    const other = join(dir.path, 'planted');
    mkdirSync(join(other, 'tmux'), { recursive: true });
    writeFileSync(join(other, 'tmux', 'tmux.sock'), 'not a socket');
    chmodSync(join(other, 'tmux', 'tmux.sock'), 0o600);
    const r = await cli(['attach', 'demo', 'planner'], { GENSWARMS_URL: server.url, GENSWARMS_HOME: other, PATH: '/usr/bin:/bin' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^genswarms: not_server_host: /);
  });
});
