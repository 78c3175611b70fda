import { parseAddAgentCommand, parseScaleCommand, parseSnapshotFormat, parseTopologyPatchCommand } from '../src/lib/commands/parse-command';
import { EngineError } from '../src/lib/errors/engine-error';
import { eventsOf, makeHarness, mockAgent, waitEvent, type Harness } from './harness';
import { refusal } from '@genswarms/test-kit';

/** What the assertions compare: code, HTTP status and a plain copy of the details. */
const plain = (e: EngineError): { code: string; status: number; details: Record<string, unknown> } => ({
  code: e.code,
  status: e.status,
  details: { ...e.details },
});

/** Runs `fn` as the edge would: a command parser that throws refuses like the engine does. */
const viaEdge = <T>(fn: () => Promise<T>): Promise<T> => Promise.resolve().then(fn);

describe('runtime mutations through the gate', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('replays the overlay after stop/start and clears it on request', async () => {
    const config = { name: 'ov', agents: [mockAgent('a')], options: { max_agents: 3 } };
    await h.engine.startSwarm({ config });
    expect(await h.engine.addAgent('ov', { ...mockAgent('b'), incoming: ['a'] })).toEqual({ status: 'added', name: 'b' });
    expect((await h.engine.getOverlay('ov')).events).toMatchObject([
      { seq: 1, op: 'add_agent' },
      { seq: 2, op: 'add_topology_edges' },
    ]);
    await h.engine.stopSwarm('ov');
    await h.engine.startSwarm({ config });
    const detail = await h.engine.getSwarm('ov');
    expect(detail.agents.map((a) => a.name)).toEqual(['a', 'b']);
    expect(detail.topology).toEqual([{ from: 'a', targets: ['b'] }]);
    await h.engine.stopSwarm('ov');
    await h.engine.clearOverlay('ov');
    await h.engine.startSwarm({ config });
    expect((await h.engine.getSwarm('ov')).agents.map((a) => a.name)).toEqual(['a']);
  });

  it('refuses the cap and forbidden keys with nothing changed', async () => {
    await h.engine.startSwarm({ config: { name: 'cap', agents: [mockAgent('a'), mockAgent('b')], options: { max_agents: 2 } } });
    expect(plain(await refusal(EngineError, h.engine.addAgent('cap', mockAgent('c'))))).toEqual({
      code: 'agent_cap_exceeded',
      status: 400,
      details: { count: 3, limit: 2 },
    });
    expect(plain(await refusal(EngineError, h.engine.scaleAgents('cap', 'a', 3)))).toMatchObject({
      code: 'agent_cap_exceeded',
      status: 400,
    });
    await h.engine.stopSwarm('cap', { purge: true });
    await h.engine.startSwarm({ config: { name: 'keys', agents: [mockAgent('a')] } });
    expect(
      plain(
        await refusal(
          EngineError,
          h.engine.addAgent('keys', { ...mockAgent('x'), config: { extra_rw_binds: [['/', '/host']], extra_path: ['/usr'] } }),
        ),
      ),
    ).toEqual({ code: 'forbidden_config_keys', status: 400, details: { keys: ['extra_path', 'extra_rw_binds'] } });
    expect(
      plain(
        await refusal(
          EngineError,
          h.engine.addAgent('keys', { ...mockAgent('x'), backend: { type: 'mock', opts: { agent_binary_path: '/bin/sh' } } }),
        ),
      ),
    ).toEqual({ code: 'forbidden_config_keys', status: 400, details: { keys: ['agent_binary_path'] } });
    expect(plain(await refusal(EngineError, h.engine.addAgent('keys', { ...mockAgent('x'), connections: ['ghost'] })))).toMatchObject({
      code: 'unknown_edge_endpoint',
      status: 400,
    });
    expect(plain(await refusal(EngineError, h.engine.addAgent('keys', mockAgent('a'))))).toMatchObject({
      code: 'already_exists',
      status: 400,
    });
    expect(
      plain(
        await refusal(
          EngineError,
          viaEdge(() => h.engine.addAgent('keys', parseAddAgentCommand(mockAgent('bad name')))),
        ),
      ),
    ).toMatchObject({
      code: 'invalid_name',
      status: 400,
    });
    expect((await h.engine.getOverlay('keys')).events).toEqual([]);
    expect((await h.engine.getSwarm('keys')).agents.map((a) => a.name)).toEqual(['a']);
  });

  it('topology PATCH is all or nothing', async () => {
    await h.engine.startSwarm({ config: { name: 'topo', agents: [mockAgent('a'), mockAgent('b')] } });
    const patch = (body: unknown): Promise<unknown> => viaEdge(() => h.engine.patchTopology('topo', parseTopologyPatchCommand(body)));
    expect(plain(await refusal(EngineError, patch({ add: [['a', 'b'], ['a']] })))).toMatchObject({
      code: 'validation_failed',
      status: 400,
    });
    expect(plain(await refusal(EngineError, patch({ add: [['a', 'b'], { from: 'a', to: 'ghost' }] })))).toMatchObject({
      code: 'unknown_edge_endpoint',
      status: 400,
    });
    expect((await h.engine.getTopology('topo')).topology).toEqual([]);
    expect(await patch({ add: [['a', 'b'], { from: 'b', to: 'a' }] })).toEqual({ status: 'ok', added: 2, removed: 0 });
    expect(await patch({ remove: [['a', 'b']] })).toEqual({ status: 'ok', added: 0, removed: 1 });
    expect((await h.engine.getTopology('topo')).topology).toEqual([{ from: 'b', targets: ['a'] }]);
  });

  it('scales a group to <base>_<n> instances', async () => {
    await h.engine.startSwarm({ config: { name: 'sc', agents: [mockAgent('w')] } });
    expect(await h.engine.scaleAgents('sc', 'w', 2)).toEqual({
      status: 'ok',
      result: { added: ['w_1', 'w_2'], removed: ['w'], failed: [] },
    });
    expect((await h.engine.listAgents('sc')).agents.map((a) => a.name).sort()).toEqual(['w_1', 'w_2']);
    for (const count of [-1, 1.5]) {
      expect(
        plain(
          await refusal(
            EngineError,
            viaEdge(() => h.engine.scaleAgents('sc', 'w', parseScaleCommand({ count }).count)),
          ),
        ),
      ).toMatchObject({
        code: 'invalid_count',
        status: 400,
      });
    }
  });

  it('object config PATCH: checks in order, init failure keeps the old config', async () => {
    await h.engine.startSwarm({
      config: {
        name: 'obj',
        agents: [mockAgent('a')],
        objects: [
          { name: 'c', handler: 'counter', config: { step: 1 } },
          { name: 'r', handler: 'recorder' },
        ],
      },
    });
    expect(plain(await refusal(EngineError, h.engine.patchObjectConfig('obj', 'c', { config: { extra_path: ['/'] } })))).toMatchObject({
      code: 'forbidden_config_keys',
      status: 422,
    });
    expect(plain(await refusal(EngineError, h.engine.patchObjectConfig('obj', 'r', { config: { x: 1 } })))).toMatchObject({
      code: 'no_config_schema',
      status: 422,
    });
    expect(plain(await refusal(EngineError, h.engine.patchObjectConfig('obj', 'c', { config: { start: 3 } })))).toEqual({
      code: 'immutable_keys',
      status: 422,
      details: { keys: ['start'] },
    });
    expect(plain(await refusal(EngineError, h.engine.patchObjectConfig('obj', 'c', { config: { step: 'x' } })))).toMatchObject({
      code: 'object_init_failed',
      status: 400,
    });
    expect(await h.engine.getObject('obj', 'c')).toMatchObject({ object: { config: { step: 1 } }, state: 'running' });
    expect((await h.engine.getOverlay('obj')).events).toEqual([]);
    expect(await h.engine.patchObjectConfig('obj', 'c', { config: { step: 5 } })).toEqual({
      status: 'updated',
      object: 'c',
      keys: ['step'],
    });
    expect((await h.engine.getOverlay('obj')).events).toMatchObject([
      { op: 'update_config', payload: { target: 'c', config: { step: 5 } } },
    ]);
    expect(plain(await refusal(EngineError, h.engine.addObject('obj', { name: 'z', handler: '/tmp/evil.js' })))).toMatchObject({
      code: 'invalid_handler',
      status: 400,
    });
  });

  it('snapshot is the redacted effective config in JSON or YAML', async () => {
    await h.engine.startSwarm({
      config: { name: 'snap', agents: [{ ...mockAgent('a'), api_key: 'sk-very-secret', config: { env: { TOKEN_X: 'v1' } } }] },
    });
    await h.engine.addAgent('snap', mockAgent('b'));
    const json = await h.engine.snapshot('snap');
    expect(json.contentType).toBe('application/json');
    expect(json.body).not.toMatch(/sk-very-secret|v1/);
    expect((json.document as { agents: { name: string }[] }).agents.map((a) => a.name)).toEqual(['a', 'b']);
    const yaml = await h.engine.snapshot('snap', 'yaml');
    expect(yaml.contentType).toBe('application/yaml; charset=utf-8');
    expect(yaml.body).toContain('[REDACTED]');
    expect(
      plain(
        await refusal(
          EngineError,
          viaEdge(() => h.engine.snapshot('snap', parseSnapshotFormat('xml'))),
        ),
      ),
    ).toMatchObject({
      code: 'invalid_query',
      status: 400,
      details: { param: 'format' },
    });
  });

  it('snapshot writes a counted swarm back as counts, scaled instances included, and starts again as the same swarm', async () => {
    const config = {
      name: 'cnt',
      agents: [mockAgent('boss'), { ...mockAgent('w'), count: 3 }],
      topology: [['boss', 'w']],
      options: { max_agents: 10 },
    };
    await h.engine.startSwarm({ config });
    await h.engine.scaleAgents('cnt', 'w', 5);
    const doc = (await h.engine.snapshot('cnt')).document as { agents: { name: string; count?: number }[]; topology: unknown[] };
    expect(doc.agents.map((a) => [a.name, a.count])).toEqual([
      ['boss', undefined],
      ['w', 5],
    ]);
    expect(doc.topology).toEqual([['boss', 'w']]);
    await h.engine.stopSwarm('cnt', { purge: true });
    await h.engine.startSwarm({ config: { ...doc, name: 'cnt2' } });
    expect((await h.engine.getSwarm('cnt2')).agents.map((a) => a.name)).toEqual(['boss', 'w_1', 'w_2', 'w_3', 'w_4', 'w_5']);
  });

  it('stop drops queued items with one inbox_dropped; a task to a stopped swarm is refused; its turns stay readable', async () => {
    await h.engine.startSwarm({
      config: { name: 'st', agents: [{ name: 'a', backend: { type: 'mock', opts: { delay_ms: 86_400_000 } } }] },
    });
    for (const t of ['1', '2', '3']) await h.engine.sendTask('st', 'a', t);
    await waitEvent(h.engine, 'st', (e) => e.event_type === 'turn_started', 'turn');
    await h.engine.stopSwarm('st');
    const dropped = (await eventsOf(h.engine, 'st')).filter((e) => e.event_type === 'inbox_dropped');
    expect(dropped.map((e) => e.metadata['count'])).toEqual([2]);
    expect((await h.engine.getSwarm('st')).status).toBe('stopped');
    // a stopped swarm is known; a task to a stopped agent is 409 agent_not_ready, never queued
    expect(plain(await refusal(EngineError, h.engine.sendTask('st', 'a', 'x')))).toMatchObject({
      code: 'agent_not_ready',
      status: 409,
      details: { agent: 'a', state: 'stopped' },
    });
    expect(plain(await refusal(EngineError, h.engine.sendTask('st', 'zz', 'x')))).toMatchObject({ code: 'agent_not_found', status: 404 });
    expect(plain(await refusal(EngineError, h.engine.sendTask('never', 'a', 'x')))).toMatchObject({ code: 'swarm_not_found', status: 404 });
    expect(await h.engine.store.listInbox('st', 'a')).toEqual([]);
    // A stopped swarm still in the store is known, so its reads answer (the cancelled turn).
    expect((await h.engine.listTurns('st', 'a')).turns.map((t) => t.status)).toEqual(['cancelled']);
  });

  it('a start refused by the gate spawns and registers nothing', async () => {
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ config: { name: 'bad', agents: [] } })))).toMatchObject({
      code: 'validation_failed',
      status: 400,
    });
    expect(
      plain(
        await refusal(
          EngineError,
          h.engine.startSwarm({ config: { name: 'bad2', agents: [{ name: 'a', backend: 'local', network: 'none' }] } }),
        ),
      ),
    ).toMatchObject({ code: 'unsupported_network', status: 400, details: { agent: 'a' } });
    expect(plain(await refusal(EngineError, h.engine.startSwarm({ path: '../etc/passwd.json' })))).toMatchObject({
      code: 'invalid_config_path',
      status: 400,
    });
    expect((await h.engine.listSwarms()).swarms).toEqual([]);
  });
});
