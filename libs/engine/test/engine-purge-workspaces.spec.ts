/**
 * `stop --purge` and `restart --delete` remove the swarm's default workspaces and state dirs, never a
 * workspace the operator named (docs/rest-api.md): named workspaces are known as start resolved them
 * (relative → the config file's directory, inline → GENSWARMS_SWARM_CONFIG_DIR), by real path, including
 * agents added at runtime; nothing outside `<home>/{workspaces,state}/<swarm>` is ever deleted.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Engine } from '../src/lib/swarms/engine';
import { makeHarness, mockAgent, waitFor, type Harness } from './harness';

type Purge = (engine: Engine, swarm: string) => Promise<unknown>;
const PURGES: [string, Purge][] = [
  ['stop --purge', (e, s) => e.stopSwarm(s, { purge: true })],
  ['restart --delete', (e, s) => e.restartSwarm(s, { deleteData: true })],
];

/** A file the operator keeps in a directory; purge must leave it. */
function plant(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'KEEP');
  fs.writeFileSync(file, 'operator data');
  return file;
}

describe('purge removes what the swarm owns, never a named workspace', () => {
  let h: Harness;
  let scratch: string;
  let cwd: string;
  beforeEach(async () => {
    h = await makeHarness();
    scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-purge-')));
    cwd = process.cwd();
  });
  afterEach(async () => {
    process.chdir(cwd);
    await h.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function startedAndIdle(input: Parameters<Engine['startSwarm']>[0], swarm: string, agents: readonly string[]): Promise<void> {
    await h.engine.startSwarm(input);
    for (const a of agents) await waitFor(async () => (await h.engine.getAgent(swarm, a)).state === 'idle', `${a} idle`);
  }

  test.each(PURGES)(
    "%s: a relative workspace of a config_path config resolves against the file's directory, not the cwd",
    async (_name, purge) => {
      // team/pg.json names a's workspace relatively: <configDir>/team/../../workspaces/pg/a = a's own default path
      fs.mkdirSync(path.join(h.configDir, 'team'));
      const relative = '../../workspaces/pg/a';
      fs.writeFileSync(
        path.join(h.configDir, 'team', 'pg.json'),
        JSON.stringify({ name: 'pg', agents: [mockAgent('a', ['x'], { workspace: relative }), mockAgent('b')] }),
      );
      // the server's cwd holds a same-named directory: purge must not touch it either
      fs.mkdirSync(path.join(scratch, 'cwd', 'x'), { recursive: true });
      process.chdir(path.join(scratch, 'cwd', 'x'));
      const decoy = plant(path.resolve(relative));
      await startedAndIdle({ path: 'team/pg.json' }, 'pg', ['a', 'b']);
      const kept = plant(path.join(h.home, 'workspaces', 'pg', 'a'));
      const removed = [plant(path.join(h.home, 'workspaces', 'pg', 'b')), plant(path.join(h.home, 'state', 'pg', 'a'))];
      await purge(h.engine, 'pg');
      expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
      expect(fs.readFileSync(decoy, 'utf8')).toBe('operator data');
      expect(removed.filter((f) => fs.existsSync(f))).toEqual([]);
    },
  );

  test.each(PURGES)('%s: a relative workspace of an inline config resolves against GENSWARMS_SWARM_CONFIG_DIR', async (_name, purge) => {
    const relative = '../workspaces/pg/a';
    fs.mkdirSync(path.join(scratch, 'cwd'));
    process.chdir(path.join(scratch, 'cwd'));
    const decoy = plant(path.resolve(relative));
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a', ['x'], { workspace: relative }), mockAgent('b')] } }, 'pg', [
      'a',
      'b',
    ]);
    const kept = plant(path.join(h.home, 'workspaces', 'pg', 'a'));
    const removed = [plant(path.join(h.home, 'workspaces', 'pg', 'b')), plant(path.join(h.home, 'state', 'pg', 'a'))];
    await purge(h.engine, 'pg');
    expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
    expect(fs.readFileSync(decoy, 'utf8')).toBe('operator data');
    expect(removed.filter((f) => fs.existsSync(f))).toEqual([]);
  });

  test.each<[string, string | null, string]>([
    ["a config_path row (base dir: the file's directory)", 'team', '../../workspaces/pg/a'],
    ['an inline row (base dir: GENSWARMS_SWARM_CONFIG_DIR)', null, '../workspaces/pg/a'],
  ])('a stored relative workspace of %s resolves as start resolves it, never against the cwd', async (_name, sub, relative) => {
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a'), mockAgent('b')] } }, 'pg', ['a', 'b']);
    await h.engine.stopSwarm('pg');
    const baseDir = sub === null ? null : path.join(h.configDir, sub);
    const config = { name: 'pg', agents: [mockAgent('a', ['x'], { workspace: relative }), mockAgent('b')] };
    await h.engine.store.upsertSwarm({ name: 'pg', config, baseDir, status: 'stopped', startedAt: null, stoppedAt: null });
    fs.mkdirSync(path.join(scratch, 'cwd', 'x'), { recursive: true });
    process.chdir(path.join(scratch, 'cwd', 'x'));
    const decoy = plant(path.resolve(relative));
    const kept = plant(path.join(h.home, 'workspaces', 'pg', 'a'));
    const removed = plant(path.join(h.home, 'workspaces', 'pg', 'b'));
    await h.engine.stopSwarm('pg', { purge: true });
    expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
    expect(fs.readFileSync(decoy, 'utf8')).toBe('operator data');
    expect(fs.existsSync(removed)).toBe(false);
  });

  test.each(PURGES)('%s: a workspace named through a symlink is kept (compared by real path)', async (_name, purge) => {
    fs.mkdirSync(path.join(h.home, 'workspaces', 'pg'), { recursive: true });
    fs.symlinkSync(path.join(h.home, 'workspaces', 'pg'), path.join(scratch, 'link'));
    const named = path.join(scratch, 'link', 'a');
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a', ['x'], { workspace: named }), mockAgent('b')] } }, 'pg', [
      'a',
      'b',
    ]);
    const kept = plant(path.join(h.home, 'workspaces', 'pg', 'a'));
    await purge(h.engine, 'pg');
    expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
  });

  test.each(PURGES)('%s: the named workspace of an agent added at runtime is kept', async (_name, purge) => {
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a')] } }, 'pg', ['a']);
    const named = path.join(h.home, 'workspaces', 'pg', 'c', 'project');
    await h.engine.addAgent('pg', mockAgent('c', ['x'], { workspace: named }));
    await waitFor(async () => (await h.engine.getAgent('pg', 'c')).state === 'idle', 'c idle');
    const kept = plant(named);
    await purge(h.engine, 'pg');
    expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
  });

  it('keeps the named workspace of an agent added and removed again at runtime', async () => {
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a')] } }, 'pg', ['a']);
    const named = path.join(h.home, 'workspaces', 'pg', 'c', 'project');
    await h.engine.addAgent('pg', mockAgent('c', ['x'], { workspace: named }));
    await waitFor(async () => (await h.engine.getAgent('pg', 'c')).state === 'idle', 'c idle');
    await h.engine.removeAgent('pg', 'c');
    const kept = plant(named);
    await h.engine.stopSwarm('pg', { purge: true });
    expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
    expect(fs.existsSync(path.join(h.home, 'workspaces', 'pg', 'a'))).toBe(false);
  });

  it('keeps every workspace when the stored config no longer passes the gate (fail closed), still removes the state dirs', async () => {
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a')] } }, 'pg', ['a']);
    await h.engine.stopSwarm('pg');
    const row = await h.engine.store.getSwarm('pg');
    await h.engine.store.upsertSwarm({
      name: 'pg',
      config: { name: 'pg', agents: [{ name: '../bad' }] },
      baseDir: row?.baseDir ?? null,
      status: 'stopped',
      startedAt: null,
      stoppedAt: null,
    });
    const kept = plant(path.join(h.home, 'workspaces', 'pg', 'a'));
    const removed = plant(path.join(h.home, 'state', 'pg', 'a'));
    await h.engine.stopSwarm('pg', { purge: true });
    expect(fs.readFileSync(kept, 'utf8')).toBe('operator data');
    expect(fs.existsSync(removed)).toBe(false);
  });

  it('removes the default workspaces and state dirs, and follows no link an agent planted in them', async () => {
    const outside = plant(path.join(scratch, 'outside'));
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a')] } }, 'pg', ['a']);
    fs.symlinkSync(path.dirname(outside), path.join(h.home, 'workspaces', 'pg', 'a', 'escape'));
    await h.engine.stopSwarm('pg', { purge: true });
    expect(fs.existsSync(path.join(h.home, 'workspaces', 'pg'))).toBe(false);
    expect(fs.existsSync(path.join(h.home, 'state', 'pg'))).toBe(false);
    expect(fs.readFileSync(outside, 'utf8')).toBe('operator data');
  });

  it('never follows <home>/workspaces/<swarm> when it is a link to elsewhere', async () => {
    await startedAndIdle({ config: { name: 'pg', agents: [mockAgent('a', ['x'], { workspace: path.join(scratch, 'named') })] } }, 'pg', [
      'a',
    ]);
    const outside = plant(path.join(scratch, 'elsewhere'));
    fs.mkdirSync(path.join(h.home, 'workspaces'), { recursive: true });
    fs.symlinkSync(path.dirname(outside), path.join(h.home, 'workspaces', 'pg'));
    await h.engine.stopSwarm('pg', { purge: true });
    expect(fs.readFileSync(outside, 'utf8')).toBe('operator data');
  });
});
