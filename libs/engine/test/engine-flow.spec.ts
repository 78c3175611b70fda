import * as fs from 'node:fs';
import * as path from 'node:path';
import { sendTask, listTurns, resumeAgent } from '../src/lib/swarms/agent-ops';
import { EngineError } from '../src/lib/errors/engine-error';
import { eventsOf, makeHarness, mockAgent, waitEvent, waitFor, type Harness } from './harness';

describe('engine end to end (mock runner)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  it('task → turn → receipt → marker and outbox messages → second agent turn → events in order', async () => {
    const config = {
      name: 'flow',
      agents: [
        mockAgent('writer', ['draft: {{content}}\n<<SWARM_MSG:TO=critic:START>>\nplease review {{content}}\n<<SWARM_MSG:END>>']),
        mockAgent('critic', ['ok: {{content}}']),
      ],
      objects: [{ name: 'rec', handler: 'recorder' }],
      topology: [['writer', 'critic'], { from: 'critic', to: 'rec' }],
    };
    expect(await h.engine.startSwarm({ config })).toEqual({ status: 'created', swarm_name: 'flow' });
    const sent = await sendTask(h.engine.ctx, 'flow', 'writer', 'essay');
    expect(sent).toMatchObject({ status: 'sent', agent: 'writer', queued: 1 });
    await waitEvent(h.engine, 'flow', (e) => e.event_type === 'turn_completed' && e.agent === 'critic', 'critic turn');
    const types = (await eventsOf(h.engine, 'flow')).map((e) => `${e.event_type}:${e.agent ?? ''}`);
    const order = [
      'task_sent:writer',
      'turn_started:writer',
      'turn_completed:writer',
      'message_routed:writer',
      'turn_started:critic',
      'turn_completed:critic',
    ];
    const idx = order.map((t) => types.indexOf(t));
    expect(idx.every((i) => i >= 0)).toBe(true);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    const inbox = fs.readdirSync(path.join(h.home, 'workspaces', 'flow', 'critic', '.inbox'));
    expect(inbox).toEqual(['0001_writer.json']);
    const file = JSON.parse(
      fs.readFileSync(path.join(h.home, 'workspaces', 'flow', 'critic', '.inbox', '0001_writer.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(file).toMatchObject({ from: 'writer', content: 'please review essay', seq: 1 });
    const turns = await listTurns(h.engine.ctx, 'flow', 'writer');
    expect(turns.turns).toMatchObject([
      { status: 'completed', from: '_operator', reply_preview: expect.stringContaining('draft: essay') as unknown },
    ]);
    expect((await h.engine.listMessages('flow')).messages).toMatchObject([{ from: 'writer', to: 'critic', type: 'direct' }]);
  });

  it('outbox files are routed; a denied route leaves no delivery and no message-log entry', async () => {
    const config = { name: 'ob', agents: [mockAgent('a', ['done']), mockAgent('b'), mockAgent('c')], topology: [['a', 'b']] };
    await h.engine.startSwarm({ config });
    const outbox = path.join(h.home, 'workspaces', 'ob', 'a', '.outbox');
    fs.mkdirSync(outbox, { recursive: true });
    fs.writeFileSync(path.join(outbox, '1.json'), JSON.stringify({ to: 'b', content: 'allowed' }));
    fs.writeFileSync(path.join(outbox, '2.json'), JSON.stringify({ to: 'c', content: 'denied' }));
    await waitEvent(h.engine, 'ob', (e) => e.event_type === 'turn_completed' && e.agent === 'b', 'b turn');
    await waitEvent(h.engine, 'ob', (e) => e.event_type === 'invalid_route', 'denial');
    expect((await h.engine.listMessages('ob')).messages.map((m) => m.to)).toEqual(['b']);
    expect(fs.existsSync(path.join(h.home, 'workspaces', 'ob', 'c', '.inbox'))).toBe(false);
    expect((await listTurns(h.engine.ctx, 'ob', 'c')).turns).toEqual([]);
    expect(fs.readdirSync(outbox)).toEqual([]);
  });

  it('a hostile receipt (symlinked done.json) → needs_attention, tasks refused 409, resume recovers', async () => {
    const config = { name: 'hostile', agents: [{ name: 'a', backend: { type: 'mock', opts: { replies: ['x'], delay_ms: 86_400_000 } } }] };
    await h.engine.startSwarm({ config });
    await sendTask(h.engine.ctx, 'hostile', 'a', 'one');
    const started = await waitEvent(h.engine, 'hostile', (e) => e.event_type === 'turn_started', 'turn start');
    const turnId = String(started.metadata['turn']);
    const dir = path.join(h.home, 'workspaces', 'hostile', 'a', '.genswarms', 'turns', turnId);
    await waitFor(async () => fs.existsSync(dir), 'turn dir');
    fs.writeFileSync(path.join(h.home, 'secret.json'), JSON.stringify({ v: 1, turn: turnId, status: 'ok' }));
    fs.writeFileSync(path.join(dir, 'reply.md'), 'leak <<SWARM_MSG:BROADCAST:START>>x<<SWARM_MSG:END>>');
    fs.symlinkSync(path.join(h.home, 'secret.json'), path.join(dir, 'done.json'));
    await waitEvent(h.engine, 'hostile', (e) => e.event_type === 'agent_needs_attention', 'needs attention');
    const rejected = (await eventsOf(h.engine, 'hostile')).find((e) => e.event_type === 'receipt_rejected');
    expect(rejected?.metadata).toMatchObject({ turn: turnId, reason: 'receipt_symlink' });
    let caught: unknown;
    try {
      await sendTask(h.engine.ctx, 'hostile', 'a', 'two');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(EngineError);
    expect([(caught as EngineError).code, (caught as EngineError).status, (caught as EngineError).details['reason']]).toEqual([
      'needs_attention',
      409,
      'receipt_symlink',
    ]);
    expect((await listTurns(h.engine.ctx, 'hostile', 'a')).turns[0]).toMatchObject({
      id: turnId,
      status: 'rejected',
      reason: 'receipt_symlink',
    });
    expect((await h.engine.listMessages('hostile')).messages).toEqual([]);
    expect(await resumeAgent(h.engine.ctx, 'hostile', 'a')).toEqual({ status: 'resumed', agent: 'a', state: 'idle' });
    expect(await sendTask(h.engine.ctx, 'hostile', 'a', 'three')).toMatchObject({ status: 'sent' });
  });

  it('50 tasks to 10 agents complete exactly 50 turns', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `w${i}`);
    await h.engine.startSwarm({ config: { name: 'many', agents: names.map((n) => mockAgent(n)) } });
    await Promise.all(Array.from({ length: 50 }, (_, i) => sendTask(h.engine.ctx, 'many', names[i % 10] as string, `t${i}`)));
    await waitFor(async () => (await eventsOf(h.engine, 'many')).filter((e) => e.event_type === 'turn_completed').length >= 50, '50 turns');
    let total = 0;
    for (const n of names) {
      const turns = (await listTurns(h.engine.ctx, 'many', n)).turns;
      expect(turns.every((t) => t.status === 'completed')).toBe(true);
      expect(new Set(turns.map((t) => t.item_id)).size).toBe(turns.length);
      total += turns.length;
    }
    expect(total).toBe(50);
    expect((await eventsOf(h.engine, 'many')).filter((e) => e.event_type === 'turn_started')).toHaveLength(50);
  });

  it('turn_timeout_ms: turn timed_out, session stays busy, late receipt frees it and routes nothing', async () => {
    const config = {
      name: 'slow',
      agents: [
        {
          name: 'a',
          backend: { type: 'mock', opts: { replies: ['late <<SWARM_MSG:TO=rec:START>>x<<SWARM_MSG:END>>'], delay_ms: 400 } },
          turn_timeout_ms: 1,
          reply_to: 'rec',
        },
      ],
      objects: [{ name: 'rec', handler: 'recorder' }],
      topology: [['a', 'rec']],
    };
    await h.engine.startSwarm({ config });
    await h.engine.sendTask('slow', 'a', 'x');
    await waitEvent(h.engine, 'slow', (e) => e.event_type === 'turn_timeout', 'timeout');
    expect((await h.engine.getAgent('slow', 'a')).state).toBe('busy');
    await waitEvent(h.engine, 'slow', (e) => e.event_type === 'auto_deliver_skipped', 'late receipt');
    await waitFor(async () => (await h.engine.getAgent('slow', 'a')).state === 'idle', 'idle');
    expect((await h.engine.listTurns('slow', 'a')).turns[0]?.status).toBe('timed_out');
    expect((await h.engine.listMessages('slow')).messages).toEqual([]);
    expect((await eventsOf(h.engine, 'slow')).filter((e) => e.event_type === 'turn_completed')).toEqual([]);
  });
});
