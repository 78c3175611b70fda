/**
 * An agent's `api_key`, its `config.env` values and an object's secret config are kept in the 0600
 * secret store (`<home>/secrets`), never in genswarms.db (nor its -wal/-shm) or anywhere else under the home;
 * restart and crash recovery still start the agent with them.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaunchPlan, Runner, RunnerRegistry } from '@genswarms/runners';
import { createHandlerRegistry } from '../src/lib/objects/builtins';
import type { ObjectHandler } from '../src/lib/objects/handler';
import { makeHarness, mockAgent, waitFor, type Harness } from './harness';

const CANARY = {
  apiKey: 'sk-canary-apikey-5f1c2a9e',
  env: 'canary-env-value-8d3b7c10',
  objectSecret: 'canary-object-token-4e6a0b2d',
  overlayKey: 'sk-canary-overlay-agent-91f0c3aa',
  overlayObject: 'canary-overlay-object-token-77ab12',
  handlerSecret: 'postgres://canary-dsn-3c9e55f1@db',
  patchedSecret: 'postgres://canary-patched-dsn-0a1b2c@db',
};

/** Every regular file under `dir` except the secret store, with its bytes. */
function filesOutsideSecrets(dir: string, home: string): { file: string; bytes: Buffer }[] {
  const out: { file: string; bytes: Buffer }[] = [];
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (p === path.join(home, 'secrets')) continue;
    if (ent.isDirectory()) out.push(...filesOutsideSecrets(p, home));
    else if (ent.isFile()) out.push({ file: path.relative(home, p), bytes: fs.readFileSync(p) });
  }
  return out;
}

function leaksIn(home: string): string[] {
  const found: string[] = [];
  for (const { file, bytes } of filesOutsideSecrets(home, home)) {
    for (const [what, canary] of Object.entries(CANARY)) if (bytes.includes(Buffer.from(canary))) found.push(`${what} in ${file}`);
  }
  return found;
}

/** The registry with the mock runner's plans recorded (their env is what the agent is started with). */
function recordingPlans(plans: LaunchPlan[]): (real: RunnerRegistry) => RunnerRegistry {
  return (real) => ({
    has: (kind) => real.has(kind),
    closeAll: (mode) => real.closeAll(mode),
    get: (kind): Runner => {
      const runner = real.get(kind);
      return {
        ...runner,
        kind: runner.kind,
        plan: (spec, ctx) => {
          const plan = runner.plan(spec, ctx);
          plans.push(plan);
          return plan;
        },
        start: (plan, ctx) => runner.start(plan, ctx),
        ...(runner.reattach === undefined ? {} : { reattach: (d, ctx) => runner.reattach!(d, ctx) }),
      };
    },
  });
}

/** `dsn` is secret only because the handler's schema says so (its name matches no key-name rule). */
const vault: ObjectHandler = {
  configSchema: { dsn: { secret: true, mutable: true }, level: { mutable: true } },
  init: () => ({}),
  onMessage: (_m, state) => ({ state }),
};

const CONFIG = {
  name: 'sec',
  agents: [{ ...mockAgent('a'), api_key: CANARY.apiKey, config: { env: { MY_SETTING: CANARY.env } } }],
  objects: [
    { name: 'c', handler: 'counter', config: { step: 1, api_token: CANARY.objectSecret } },
    { name: 'v', handler: 'vault', config: { dsn: CANARY.handlerSecret, level: 1 } },
  ],
};

describe('secrets are not written into genswarms.db', () => {
  let h: Harness;
  const plans: LaunchPlan[] = [];
  beforeEach(async () => {
    plans.length = 0;
    const handlers = createHandlerRegistry();
    handlers.register('vault', vault);
    h = await makeHarness({ runners: recordingPlans(plans), handlers });
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('no canary in the database, its WAL/SHM or any other file under the home; the secret store is 0700/0600', async () => {
    await h.engine.startSwarm({ config: CONFIG });
    await h.engine.addAgent('sec', { ...mockAgent('b'), api_key: CANARY.overlayKey });
    await h.engine.addObject('sec', { name: 'd', handler: 'counter', config: { api_token: CANARY.overlayObject } });
    await h.engine.patchObjectConfig('sec', 'v', { config: { dsn: CANARY.patchedSecret } });
    await h.engine.sendTask('sec', 'a', 'hello');
    await waitFor(async () => (await h.engine.listTurns('sec', 'a')).turns.some((t) => t.status === 'completed'), 'a turn');
    expect(fs.existsSync(path.join(h.home, 'genswarms.db-wal'))).toBe(true);
    expect(leaksIn(h.home)).toEqual([]);

    const dir = path.join(h.home, 'secrets');
    expect(fs.lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.lstatSync(path.join(dir, 'sec')).mode & 0o777).toBe(0o700);
    for (const f of fs.readdirSync(path.join(dir, 'sec'))) expect(fs.lstatSync(path.join(dir, 'sec', f)).mode & 0o777).toBe(0o600);

    // What shows configs keeps redacting, and the engine still reads the real values back.
    const shown = JSON.stringify([await h.engine.getSwarm('sec'), (await h.engine.snapshot('sec')).body]);
    for (const canary of Object.values(CANARY)) expect(shown).not.toContain(canary);
    const stored = JSON.stringify((await h.engine.store.getSwarm('sec'))?.config);
    expect(stored).toContain(CANARY.apiKey);
    expect(stored).toContain(CANARY.env);
    expect(stored).toContain(CANARY.handlerSecret);
    const overlay = JSON.stringify(await h.engine.store.listOverlay('sec'));
    for (const canary of [CANARY.overlayKey, CANARY.overlayObject, CANARY.patchedSecret]) expect(overlay).toContain(canary);
  });

  it('a crash and open() on the same home start the agents again with their key and env', async () => {
    await h.engine.startSwarm({ config: CONFIG });
    await h.engine.addAgent('sec', { ...mockAgent('b'), api_key: CANARY.overlayKey });
    await h.engine.close(); // crash: no stop
    plans.length = 0;
    h.engine = await h.open();
    await waitFor(async () => plans.length >= 2, 'agents planned again');
    // The mock runner builds no process env: the launch spec is what every runner builds the agent's env from.
    const specOf = (agent: string): LaunchPlan['spec'] | undefined => plans.find((p) => p.spec.agent === agent)?.spec;
    expect(specOf('a')?.apiKey).toBe(CANARY.apiKey);
    expect(specOf('a')?.config.env).toEqual({ MY_SETTING: CANARY.env });
    expect(specOf('b')?.apiKey).toBe(CANARY.overlayKey);
    expect(leaksIn(h.home)).toEqual([]);
  });

  it('purging the swarm removes its secrets', async () => {
    await h.engine.startSwarm({ config: CONFIG });
    expect(fs.existsSync(path.join(h.home, 'secrets', 'sec'))).toBe(true);
    await h.engine.stopSwarm('sec', { purge: true });
    expect(fs.existsSync(path.join(h.home, 'secrets', 'sec'))).toBe(false);
  });
});

describe('a database written before secrets left it', () => {
  it('has its plaintext secrets moved out at open, and the engine still reads them', async () => {
    const h = await makeHarness();
    try {
      await h.engine.startSwarm({ config: { name: 'old', agents: [mockAgent('a')] } });
      await h.engine.close();
      // An older engine wrote the config as it was given.
      const db = new Database(path.join(h.home, 'genswarms.db'));
      const legacy = { name: 'old', agents: [{ ...mockAgent('a'), api_key: CANARY.apiKey, config: { env: { X: CANARY.env } } }] };
      db.prepare('UPDATE swarms SET config = ? WHERE name = ?').run(JSON.stringify(legacy), 'old');
      db.close();
      expect(leaksIn(h.home).length).toBeGreaterThan(0);

      h.engine = await h.open();
      expect((await h.engine.store.getSwarm('old'))?.config).toEqual(legacy);
      expect(leaksIn(h.home)).toEqual([]);
      await h.engine.close();
      h.engine = await h.open(); // a second open (rows already hold references) still reads the same
      expect((await h.engine.store.getSwarm('old'))?.config).toEqual(legacy);
    } finally {
      await h.cleanup();
    }
  });
});
