/**
 * The engine releases what its runners hold when it leaves: a shutdown (every swarm stopped) ends the tmux
 * control client and the tmux server; a detach (agents stay for the next start) ends the control client and
 * keeps the panes. Before, both left the control client attached: a process that embedded the engine never
 * exited, and `down` left a tmux server running.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killTmuxServerOf, liveSleeps, openEscapeEngine, uniqueMarks } from './escape-engine';
import { waitFor } from '@genswarms/test-kit';

const haveTools = ['/usr/bin/tmux', '/usr/bin/xargs'].every((b) => fs.existsSync(b));
if (!haveTools) console.warn('SKIPPING runner-close specs: tmux or xargs is missing (CI installs them)');
const describeTmux = haveTools ? describe : describe.skip;

function makeHome(): string {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-engine-close-')));
  fs.chmodSync(home, 0o700);
  fs.mkdirSync(path.join(home, 'configs'), { mode: 0o700 });
  return home;
}

/** Live processes whose argv names this home's tmux socket: [pid, ppid]. */
function tmuxProcessesOf(home: string): Array<[number, number]> {
  const socket = path.join(home, 'tmux', 'tmux.sock');
  const out: Array<[number, number]> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(socket)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') out.push([Number(entry), Number(fields[1])]);
    } catch {
      // expected: the process exited while we looked
    }
  }
  return out;
}

const swarmOf = (name: string, mark: string): Record<string, unknown> => ({
  name,
  agents: [{ name: 'tmx', backend: { type: 'tmux', runner: 'none' }, client: { command: ['/usr/bin/sleep', mark] } }],
});

describeTmux('engine: runners are closed when the engine leaves', () => {
  const homes: string[] = [];
  afterAll(async () => {
    for (const home of homes) {
      if (tmuxProcessesOf(home).length > 0) await killTmuxServerOf(home);
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('shutdown ends the control client and the tmux server', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    const [mark] = uniqueMarks();
    await engine.startSwarm({ config: swarmOf('close-shut', mark) });
    await waitFor(() => liveSleeps(mark).length > 0, "the agent's sleep to run");
    expect(tmuxProcessesOf(home).some(([, ppid]) => ppid === process.pid)).toBe(true); // our control client
    await engine.shutdown();
    await waitFor(() => tmuxProcessesOf(home).length === 0, 'no tmux process of the home left');
    expect(liveSleeps(mark)).toEqual([]);
  });

  it('detach with no agent window left (every swarm stopped) ends the tmux server too', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    const [mark] = uniqueMarks();
    await engine.startSwarm({ config: swarmOf('close-empty', mark) });
    await waitFor(() => liveSleeps(mark).length > 0, "the agent's sleep to run");
    await engine.stopSwarm('close-empty');
    await engine.detach();
    await waitFor(() => tmuxProcessesOf(home).length === 0, 'no tmux process of the home left');
    expect(liveSleeps(mark)).toEqual([]);
  });

  it('detach ends the control client and keeps the agent pane for the next start', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    const [mark] = uniqueMarks();
    await engine.startSwarm({ config: swarmOf('close-detach', mark) });
    await waitFor(() => liveSleeps(mark).length > 0, "the agent's sleep to run");
    await engine.detach();
    await waitFor(() => !tmuxProcessesOf(home).some(([, ppid]) => ppid === process.pid), 'no tmux process of the home left as our child');
    expect(liveSleeps(mark).length).toBeGreaterThan(0);
  });

  it('stopping the last tmux swarm ends the tmux server; purge leaves no manifest directory', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    const [mark] = uniqueMarks();
    await engine.startSwarm({ config: swarmOf('close-last', mark) });
    await waitFor(() => liveSleeps(mark).length > 0, "the agent's sleep to run");
    expect(fs.existsSync(path.join(home, 'manifests', 'close-last', 'tmx'))).toBe(true);
    await engine.stopSwarm('close-last', { purge: true });
    await waitFor(() => tmuxProcessesOf(home).length === 0, 'no tmux process of the home left');
    expect(liveSleeps(mark)).toEqual([]);
    expect(fs.existsSync(path.join(home, 'manifests', 'close-last'))).toBe(false);
    // the next tmux start opens a new server
    const [again] = uniqueMarks();
    await engine.startSwarm({ config: swarmOf('close-again', again) });
    await waitFor(() => liveSleeps(again).length > 0, "the restarted agent's sleep to run");
    await engine.shutdown();
  });

  it('stopping one tmux swarm keeps the tmux server while another swarm uses it', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    const [first, second] = uniqueMarks();
    await engine.startSwarm({ config: swarmOf('close-one', first) });
    await engine.startSwarm({ config: swarmOf('close-two', second) });
    await waitFor(() => liveSleeps(first).length > 0 && liveSleeps(second).length > 0, "both swarms' sleeps to run");
    await engine.stopSwarm('close-one');
    expect(liveSleeps(second).length).toBeGreaterThan(0);
    expect((await engine.getAgent('close-two', 'tmx')).state).toBe('idle');
    expect(tmuxProcessesOf(home).length).toBeGreaterThan(0);
    await engine.stopSwarm('close-two');
    await waitFor(() => tmuxProcessesOf(home).length === 0, 'no tmux process of the home left');
    await engine.shutdown();
  });
});
