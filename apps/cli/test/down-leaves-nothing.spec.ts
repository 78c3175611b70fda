/**
 * `down` (SIGTERM → the server detaches) leaves nothing of ours when no swarm runs; with a running swarm
 * exactly its agents and the tmux server holding their panes stay, and the next `up` re-attaches.
 * Before, the tmux server (`exit-empty off`) outlived every `down`, parented to pid 1.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildOnce } from '@genswarms/tools';
import { cli, closedPort, tempDir } from './support';
import { waitFor } from '@genswarms/test-kit';

const ROOT = resolve(__dirname, '..', '..', '..');
const SERVER_MAIN = join(ROOT, 'apps', 'server', 'dist', 'main.js');
const haveTmux = existsSync('/usr/bin/tmux') && existsSync('/usr/bin/sleep');
if (!haveTmux) console.warn('SKIPPING down-leaves-nothing: tmux is missing (CI installs it)');
const describeTmux = haveTmux ? describe : describe.skip;

interface Proc {
  pid: number;
  ppid: number;
  argv: string[];
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') out.push({ pid: Number(entry), ppid: Number(fields[1]), argv });
    } catch {
      // expected: the process exited while we looked
    }
  }
  return out;
}

/** Every live process of this test's server: the server, its descendants, anything naming the home or the agent mark. */
function oursOf(home: string, mark: string, serverPid: number | undefined): Proc[] {
  const all = processes();
  const ours = new Set<number>();
  for (const p of all) if (p.pid === serverPid || p.argv.some((w) => w.includes(home) || w === mark)) ours.add(p.pid);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all)
      if (!ours.has(p.pid) && ours.has(p.ppid) && p.ppid !== 1) {
        ours.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => ours.has(p.pid));
}

/** Descendants of `root` (inclusive). */
function treeOf(root: number, all: Proc[]): Set<number> {
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all)
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
  }
  return tree;
}

/** The tmux server keeps the argv of the client that started it (`-C` included) but is not a child of our server. */
const isTmuxServer = (p: Proc, socket: string, serverPid: number): boolean => p.argv.includes(socket) && p.ppid !== serverPid;
/** Our control client: a `tmux -C` child of the genswarms server. */
const isControlClient = (p: Proc, socket: string, serverPid: number): boolean => p.argv.includes(socket) && p.ppid === serverPid;

describeTmux('down leaves no process of ours behind (real server, real tmux)', () => {
  beforeAll(() => {
    const built = buildOnce([join(ROOT, 'apps', 'server', 'tsconfig.lib.json')]);
    if (built.kind === 'failed') throw new Error(`the server build failed: ${built.output.slice(0, 2000)}`);
  }, 600_000);

  const dir = tempDir('gs-cli-down-');
  // a root server runs agents under the agent uid: the home's parents must be searchable.
  chmodSync(dir.path, 0o711);
  const home = join(dir.path, 'home');
  const socket = join(home, 'tmux', 'tmux.sock');
  let env: Record<string, string>;
  const mark = `${Date.now() % 100000}${process.pid}`;

  beforeAll(async () => {
    const port = await closedPort();
    env = {
      GENSWARMS_HOME: home,
      GENSWARMS_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    };
    const swarm = {
      name: 'dl',
      agents: [{ name: 'tmx', backend: { type: 'tmux', runner: 'none' }, client: { command: ['/usr/bin/sleep', mark] } }],
    };
    writeFileSync(join(dir.path, 'swarm.json'), JSON.stringify(swarm));
  });
  afterAll(async () => {
    await cli(['down'], env, { cwd: dir.path });
    // best-effort cleanup of a failed run: whatever of ours is left
    for (const p of oursOf(home, mark, undefined)) if (p.argv.includes(socket)) process.kill(p.pid, 'SIGKILL');
    dir.cleanup();
  });

  const up = async (): Promise<number> => {
    const r = await cli(['up'], env, { cwd: dir.path, serverMain: SERVER_MAIN });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return Number(readFileSync(join(home, 'server.pid'), 'utf8'));
  };
  const agentState = async (): Promise<string> => {
    const r = await cli(['status', 'dl', '--json'], env, { cwd: dir.path });
    const body = JSON.parse(r.stdout) as { agents?: Array<{ name: string; state: string }> };
    return body.agents?.find((a) => a.name === 'tmx')?.state ?? `unknown: ${r.stdout}`;
  };

  it('after a swarm ran and was stopped, down leaves no process of ours (no orphaned tmux server)', async () => {
    const pid = await up();
    expect((await cli(['start', 'swarm.json', '--no-wait'], env, { cwd: dir.path })).code).toBe(0);
    await waitFor(() => oursOf(home, mark, pid).some((p) => p.argv[1] === mark), "the agent's sleep to run");
    expect((await cli(['stop', 'dl'], env, { cwd: dir.path })).code).toBe(0);
    expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    await waitFor(() => oursOf(home, mark, pid).length === 0, 'none of our processes left');
    expect(oursOf(home, mark, pid).map((p) => `${p.ppid} ${p.argv.join(' ')}`)).toEqual([]);
  }, 60_000);

  it('with a running swarm, down leaves exactly its agent and the tmux server; the next up re-attaches', async () => {
    const pid = await up();
    expect((await cli(['start', 'swarm.json', '--no-wait'], env, { cwd: dir.path })).code).toBe(0);
    await waitFor(() => oursOf(home, mark, pid).some((p) => p.argv[1] === mark), "the agent's sleep to run");
    const before = await waitFor(agentState, 'the agent past starting', { intervalMs: 100, until: (s) => s !== '' && s !== 'starting' });
    expect(['idle', 'busy']).toContain(before);
    expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    const settled = (): boolean => oursOf(home, mark, pid).every((p) => p.pid !== pid && !isControlClient(p, socket, pid));
    await waitFor(settled, 'the server and its control client gone');
    const left = oursOf(home, mark, pid);
    expect(left.filter((p) => p.pid === pid || isControlClient(p, socket, pid)).map((p) => p.argv.join(' '))).toEqual([]);
    const server = left.find((p) => isTmuxServer(p, socket, pid));
    expect(server).toBeDefined();
    const tree = treeOf(server?.pid ?? -1, processes());
    expect(left.filter((p) => !tree.has(p.pid)).map((p) => p.argv.join(' '))).toEqual([]);
    expect(left.some((p) => p.argv[0]?.endsWith('sleep') === true && p.argv[1] === mark)).toBe(true);

    const again = await up();
    expect(await agentState()).toBe(before);
    expect(oursOf(home, mark, again).some((p) => isControlClient(p, socket, again))).toBe(true);
    expect((await cli(['stop', 'dl'], env, { cwd: dir.path })).code).toBe(0);
    expect((await cli(['down'], env, { cwd: dir.path })).code).toBe(0);
    await waitFor(() => oursOf(home, mark, again).length === 0, 'none of our processes left after the second down');
    expect(oursOf(home, mark, again).map((p) => `${p.ppid} ${p.argv.join(' ')}`)).toEqual([]);
  }, 90_000);
});
