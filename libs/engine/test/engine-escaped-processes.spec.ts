/**
 * Local and tmux `runner: none` clients that escape their process tree (setsid, a double fork with its
 * own process group, nohup) leave nothing behind through the real engine: after stopSwarm, after the
 * restart op, and after the server is SIGKILLed and a new engine recovers the home (docs/runners.md
 * "Lifecycle"). Skipped, loudly, on a host whose process tracking is `none` (best effort).
 */
import { buildRunnerContext } from '@genswarms/runners';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Engine } from '../src/lib/swarms/engine';
import { escapeSwarm, killTmuxServerOf, liveSleeps, openEscapeEngine, uniqueMarks } from './escape-engine';
import { waitFor } from '@genswarms/test-kit';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REGISTER = path.join(ROOT, 'tools', 'jest', 'ts-register.cjs');
const FIXTURE = path.join(__dirname, 'fixtures', 'escape-server.ts');

function makeHome(): string {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-engine-escape-')));
  fs.chmodSync(home, 0o700);
  fs.mkdirSync(path.join(home, 'configs'), { mode: 0o700 });
  return home;
}

const probeHome = makeHome();
const tracking = buildRunnerContext({
  path: '/usr/bin:/bin',
  home: probeHome,
  uid: 0,
  gid: 0,
  agentEntry: '/nonexistent.js',
  node: process.execPath,
  llm: { allowedHosts: [] },
}).processTracking;
const haveTools = ['/usr/bin/tmux', '/usr/bin/xargs', '/usr/bin/perl', '/usr/bin/setsid'].every((b) => fs.existsSync(b));
if (tracking?.kind === 'none' || !haveTools)
  console.warn(`SKIPPING escaped-process specs: tracking ${tracking?.kind ?? 'absent'}, tools ${String(haveTools)}`);
const describeTracked = tracking?.kind !== 'none' && haveTools ? describe : describe.skip;

describeTracked('engine: no escaped process of a local or tmux agent survives', () => {
  const homes: string[] = [probeHome];
  const marks: string[] = [];
  const engines: Engine[] = [];
  let server: ChildProcess | undefined;

  afterAll(async () => {
    server?.kill('SIGKILL');
    for (const e of engines) await e.shutdown().catch(() => undefined); // best-effort: a spec may have closed it already
    for (const home of homes) {
      await killTmuxServerOf(home);
      fs.rmSync(home, { recursive: true, force: true });
    }
    for (const m of marks) for (const pid of liveSleeps(m)) process.kill(pid, 'SIGKILL');
  });

  function newMarks(): { local: [string, string, string]; tmux: [string, string, string] } {
    const m = { local: uniqueMarks(), tmux: uniqueMarks() };
    marks.push(...m.local, ...m.tmux);
    return m;
  }

  const allUp = (ms: readonly string[]): Promise<boolean> =>
    waitFor(() => ms.every((m) => liveSleeps(m).length > 0), 'every escaped sleep to run');
  const alive = (pids: readonly number[]): number[] =>
    pids.filter((p) => fs.existsSync(`/proc/${p}`) && !fs.readFileSync(`/proc/${p}/stat`, 'utf8').includes(') Z '));

  it('stopSwarm: nothing the clients left remains', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    engines.push(engine);
    const m = newMarks();
    await engine.startSwarm({ config: escapeSwarm('esc-stop', m) });
    expect(await allUp([...m.local, ...m.tmux])).toBe(true);
    await engine.stopSwarm('esc-stop');
    expect([...m.local, ...m.tmux].flatMap(liveSleeps)).toEqual([]);
  });

  it('restart op: what the previous instance left is gone; the new instance runs', async () => {
    const home = makeHome();
    homes.push(home);
    const engine = await openEscapeEngine(home);
    engines.push(engine);
    const m = newMarks();
    await engine.startSwarm({ config: escapeSwarm('esc-restart', m) });
    expect(await allUp([...m.local, ...m.tmux])).toBe(true);
    const before = [...m.local, ...m.tmux].flatMap(liveSleeps);
    await engine.restartAgent('esc-restart', 'loc');
    await engine.restartAgent('esc-restart', 'tmx');
    expect(alive(before)).toEqual([]);
    expect(await allUp([...m.local, ...m.tmux])).toBe(true); // the same client started again
    await engine.stopSwarm('esc-restart');
    expect([...m.local, ...m.tmux].flatMap(liveSleeps)).toEqual([]);
  });

  /** A stand-in server runs `config` on `home` (optionally left `stopping`), then is SIGKILLed once all escapees run. */
  async function crashServer(home: string, config: Record<string, unknown>, all: readonly string[], mode: string[] = []): Promise<void> {
    server = spawn(
      process.execPath,
      ['--conditions=@genswarms/source', '--require', REGISTER, FIXTURE, home, JSON.stringify(config), ...mode],
      { shell: false, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    server.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    await waitFor(() => out.includes('ready'), 'the escape server to print ready', { timeoutMs: 60_000 });
    expect(await allUp(all)).toBe(true);
    const dead = new Promise((r) => server?.once('exit', r));
    server.kill('SIGKILL');
    await dead;
  }

  it('server kill -9, then recovery on the same home: the dead local instance left nothing; stop ends the rest', async () => {
    const home = makeHome();
    homes.push(home);
    const m = newMarks();
    const all = [...m.local, ...m.tmux];
    await crashServer(home, escapeSwarm('esc-crash', m), all);
    const localBefore = m.local.flatMap(liveSleeps);
    expect(alive(localBefore)).toEqual(localBefore); // the client died with the server; what it left did not
    const engine = await openEscapeEngine(home); // recovery: local restarted, tmux re-attached
    engines.push(engine);
    expect(alive(localBefore)).toEqual([]);
    expect(await allUp([...m.local, ...m.tmux])).toBe(true);
    await engine.stopSwarm('esc-crash');
    expect(all.flatMap(liveSleeps)).toEqual([]);
  }, 120_000);

  it('server kill -9 during a stop: the next engine finishes it, and nothing either client left remains', async () => {
    const home = makeHome();
    homes.push(home);
    const m = newMarks();
    const all = [...m.local, ...m.tmux];
    await crashServer(home, escapeSwarm('esc-stopping', m), all, ['stopping']);
    expect(m.local.flatMap(liveSleeps).length).toBeGreaterThan(0); // the client died with the server; what it left did not
    const engine = await openEscapeEngine(home); // finishes the stop: nothing relaunched
    engines.push(engine);
    expect(all.flatMap(liveSleeps)).toEqual([]);
  }, 120_000);
});
