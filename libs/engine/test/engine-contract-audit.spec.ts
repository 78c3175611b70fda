/**
 * Contract alignments found by the server audit (docs/rest-api.md, docs/messaging.md): stopped swarms still in the
 * store are known to every read; refusals name agents in `agent`; handler-declared secret keys are redacted.
 */
import { stringify as toYaml } from 'yaml';
import { EngineError } from '../src/lib/errors/engine-error';
import { createHandlerRegistry } from '../src/lib/objects/builtins';
import type { ObjectHandler } from '../src/lib/objects/handler';
import { makeHarness, mockAgent, waitEvent, type Harness } from './harness';
import { refusal } from '@genswarms/test-kit';

/** What the assertions compare: code, HTTP status and a plain copy of the details. */
const plain = (e: EngineError): { code: string; status: number; details: Record<string, unknown> } => ({
  code: e.code,
  status: e.status,
  details: { ...e.details },
});

const DSN = 'postgres://svc:hunter2-pw@db.internal/prod';

/** An embedder handler whose `dsn` is secret under a plain name. */
const vault: ObjectHandler = {
  init: (config) => ({ config }),
  onMessage: (_msg, state) => ({ state }),
  configSchema: { dsn: { secret: true, mutable: true }, level: { mutable: true } },
};

describe('a stopped swarm still in the store is known (docs/rest-api.md)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  async function runAndStop(): Promise<void> {
    const config = {
      name: 'st',
      agents: [mockAgent('a'), mockAgent('b')],
      objects: [{ name: 'rec', handler: 'recorder' }],
      topology: [['a', 'b']],
    };
    await h.engine.startSwarm({ config });
    await h.engine.addAgent('st', { ...mockAgent('c'), incoming: ['b'] });
    await h.engine.sendTask('st', 'a', 'hello');
    await waitEvent(h.engine, 'st', (e) => e.event_type === 'turn_completed' && e.agent === 'a', 'a turn');
    await h.engine.stopSwarm('st');
  }

  it('answers agents, agent detail, objects, object detail, topology, turns, history and logs from the stored seed ⊕ overlay', async () => {
    await runAndStop();
    expect((await h.engine.listAgents('st')).agents.map((a) => [a.name, a.state])).toEqual([
      ['a', 'stopped'],
      ['b', 'stopped'],
      ['c', 'stopped'],
    ]);
    expect(await h.engine.getAgent('st', 'c')).toMatchObject({
      name: 'c',
      swarm: 'st',
      state: 'stopped',
      backend: 'mock',
      awaiting: false,
      turn: null,
    });
    expect(await h.engine.listObjects('st')).toEqual({ objects: [{ name: 'rec', handler: 'recorder', state: 'stopped' }] });
    expect(await h.engine.getObject('st', 'rec')).toEqual({ object: { name: 'rec', handler: 'recorder', config: {} }, state: 'stopped' });
    expect(await h.engine.getTopology('st')).toEqual({
      topology: [
        { from: 'a', targets: ['b'] },
        { from: 'b', targets: ['c'] },
      ],
    });
    const turns = (await h.engine.listTurns('st', 'a')).turns;
    expect(turns).toMatchObject([{ status: 'completed' }]);
    expect(await h.engine.getTurn('st', 'a', turns[0]?.id ?? '')).toEqual({ ...turns[0], reply: expect.stringContaining('hello') });
    expect(plain(await refusal(EngineError, h.engine.getTurn('st', 'b', turns[0]?.id ?? '')))).toMatchObject({
      code: 'turn_not_found',
      status: 404,
    });
    expect((await h.engine.agentHistory('st', 'a')).history.length).toBeGreaterThan(0);
    expect(await h.engine.agentLogs('st', 'a')).toEqual({ logs: [] });
  });

  it('lists the configured backend, client and network in the stopped detail, as while running', async () => {
    const config = { name: 'dt', agents: [mockAgent('a', ['x'], { network: 'none' })], topology: [] };
    await h.engine.startSwarm({ config });
    const running = (await h.engine.getSwarm('dt')).agents[0];
    await h.engine.stopSwarm('dt');
    const detail = await h.engine.getSwarm('dt');
    expect(detail.agents).toHaveLength(1);
    expect(detail.agents[0]).toMatchObject({
      name: 'a',
      state: 'stopped',
      backend: running?.backend,
      client: running?.client,
      network: running?.network,
    });
    expect(detail.agents[0]).toMatchObject({ backend: 'mock', client: 'genswarms-agent', network: 'none' });
  });

  it('carries the stored topology in the stopped detail', async () => {
    await runAndStop();
    const detail = await h.engine.getSwarm('st');
    expect(detail).toMatchObject({
      status: 'stopped',
      agent_count: 3,
      object_count: 1,
      objects: [{ name: 'rec', handler: 'recorder', state: 'stopped' }],
    });
    expect(detail.topology).toEqual([
      { from: 'a', targets: ['b'] },
      { from: 'b', targets: ['c'] },
    ]);
  });

  test.each([
    ['agent detail', (h2: Harness) => h2.engine.getAgent('st', 'zz'), 'agent_not_found'],
    ['turns', (h2: Harness) => h2.engine.listTurns('st', 'zz'), 'agent_not_found'],
    ['one turn', (h2: Harness) => h2.engine.getTurn('st', 'zz', 'abc'), 'agent_not_found'],
    ['unknown turn', (h2: Harness) => h2.engine.getTurn('st', 'a', 'abc'), 'turn_not_found'],
    ['off-grammar turn', (h2: Harness) => h2.engine.getTurn('st', 'a', '../x'), 'turn_not_found'],
    ['history', (h2: Harness) => h2.engine.agentHistory('st', 'zz'), 'agent_not_found'],
    ['logs', (h2: Harness) => h2.engine.agentLogs('st', '..'), 'agent_not_found'],
    ['object detail', (h2: Harness) => h2.engine.getObject('st', 'ghost'), 'object_not_found'],
    ['object detail off-grammar', (h2: Harness) => h2.engine.getObject('st', '__proto__/x'), 'object_not_found'],
  ])('a stopped swarm still 404s an unknown node: %s', async (_what, call, code) => {
    await runAndStop();
    expect(plain(await refusal(EngineError, call(h)))).toMatchObject({ code, status: 404 });
  });

  test.each([
    ['agents', (h2: Harness) => h2.engine.listAgents('never')],
    ['agent detail', (h2: Harness) => h2.engine.getAgent('never', 'a')],
    ['objects', (h2: Harness) => h2.engine.listObjects('never')],
    ['topology', (h2: Harness) => h2.engine.getTopology('never')],
    ['turns', (h2: Harness) => h2.engine.listTurns('never', 'a')],
    ['one turn', (h2: Harness) => h2.engine.getTurn('never', 'a', 'abc')],
    ['off-grammar swarm', (h2: Harness) => h2.engine.getTopology('../etc')],
  ])('an unknown swarm is still 404 swarm_not_found: %s', async (_what, call) => {
    expect(plain(await refusal(EngineError, call(h)))).toMatchObject({ code: 'swarm_not_found', status: 404 });
  });

  it('a purged swarm is unknown again', async () => {
    await runAndStop();
    await h.engine.stopSwarm('st', { purge: true });
    expect(plain(await refusal(EngineError, h.engine.listAgents('st')))).toMatchObject({ code: 'swarm_not_found' });
  });
});

describe('refusals use the error detail names', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
    await h.engine.startSwarm({ config: { name: 'd', agents: [mockAgent('a')], objects: [{ name: 'rec', handler: 'recorder' }] } });
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('scale of an unknown base answers agent_not_found with agent, not name', async () => {
    expect(plain(await refusal(EngineError, h.engine.scaleAgents('d', 'zz', 1)))).toEqual({
      code: 'agent_not_found',
      status: 404,
      details: { agent: 'zz' },
    });
  });

  it('adding an existing agent answers already_exists with agent, not name', async () => {
    expect(plain(await refusal(EngineError, h.engine.addAgent('d', mockAgent('a'))))).toEqual({
      code: 'already_exists',
      status: 400,
      details: { agent: 'a' },
    });
  });

  it.each([
    ['an object named like an existing object', { name: 'rec', handler: 'echo' }],
    ['an object named like an existing agent', { name: 'a', handler: 'echo' }],
  ])('adding %s answers already_exists with no undocumented detail', async (_what, body) => {
    const r = plain(await refusal(EngineError, h.engine.addObject('d', body)));
    expect(r.code).toBe('already_exists');
    expect(Object.keys(r.details).filter((k) => k !== 'agent')).toEqual([]);
  });

  it('starting a running swarm again answers already_exists without a name detail', async () => {
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config: { name: 'd', agents: [mockAgent('a')] } })))).toEqual({
      code: 'already_exists',
      status: 400,
      details: {},
    });
  });
});

describe('handler-declared secret config keys are redacted (docs/messaging.md, docs/rest-api.md)', () => {
  let h: Harness;
  beforeEach(async () => {
    const handlers = createHandlerRegistry();
    handlers.register('vault', vault);
    h = await makeHarness({ handlers });
    await h.engine.startSwarm({
      config: { name: 'v', agents: [mockAgent('a')], objects: [{ name: 'db', handler: 'vault', config: { dsn: DSN, level: 1 } }] },
    });
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('object detail masks dsn and keeps the plain keys', async () => {
    expect(await h.engine.getObject('v', 'db')).toEqual({
      object: { name: 'db', handler: 'vault', config: { dsn: '[REDACTED]', level: 1 } },
      state: 'running',
    });
  });

  it('the snapshot masks dsn in JSON and YAML, for the seed object and a runtime-added one', async () => {
    await h.engine.addObject('v', { name: 'db2', handler: 'vault', config: { dsn: `${DSN}2` } });
    for (const format of ['json', 'yaml'] as const) {
      const snap = await h.engine.snapshot('v', format);
      expect(snap.body).not.toContain('hunter2');
      expect(snap.body).toContain(format === 'json' ? '"dsn":"[REDACTED]"' : 'dsn: "[REDACTED]"');
    }
    expect(toYaml((await h.engine.snapshot('v')).document)).not.toContain('hunter2');
  });

  it('the overlay masks dsn in add_object and in an update_config of a vault object', async () => {
    await h.engine.addObject('v', { name: 'db2', handler: 'vault', config: { dsn: `${DSN}2`, level: 2 } });
    await h.engine.patchObjectConfig('v', 'db', { config: { dsn: `${DSN}3` } });
    const overlay = await h.engine.getOverlay('v');
    expect(JSON.stringify(overlay)).not.toContain('hunter2');
    expect(overlay.events).toMatchObject([
      { op: 'add_object', payload: { config: { dsn: '[REDACTED]', level: 2 } } },
      { op: 'update_config', payload: { target: 'db', config: { dsn: '[REDACTED]' } } },
    ]);
  });

  it('keeps masking after the swarm stops (stored object detail, snapshot, overlay)', async () => {
    await h.engine.patchObjectConfig('v', 'db', { config: { level: 5 } });
    await h.engine.stopSwarm('v');
    expect(await h.engine.getObject('v', 'db')).toEqual({
      object: { name: 'db', handler: 'vault', config: { dsn: '[REDACTED]', level: 5 } },
      state: 'stopped',
    });
    expect((await h.engine.snapshot('v', 'yaml')).body).not.toContain('hunter2');
    expect(JSON.stringify(await h.engine.getOverlay('v'))).not.toContain('hunter2');
  });

  it('does not mask a key of the same name under a handler that does not declare it secret', async () => {
    await h.engine.addObject('v', { name: 'plain', handler: 'recorder', config: { dsn: 'visible' } });
    expect((await h.engine.getObject('v', 'plain')).object.config).toEqual({ dsn: 'visible' });
  });
});
