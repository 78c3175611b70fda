/** Hostile agent output through the real Engine (SQLite store, mock runner): each ends as docs/receipts.md says. */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sendTask } from '../src/lib/swarms/agent-ops';
import { eventsOf, makeHarness, waitEvent, waitFor, type Harness } from './harness';

const SLOW = { type: 'mock', opts: { replies: ['x'], delay_ms: 86_400_000 } };

describe('hostile agent output (engine end to end)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
  });

  const ws = (swarm: string, agent: string): string => path.join(h.home, 'workspaces', swarm, agent);

  test.each([
    ['a link to /etc/passwd', (p: string): void => fs.symlinkSync('/etc/passwd', p), 'receipt_symlink'],
    ['a FIFO', (p: string): void => void spawnSync('/usr/bin/mkfifo', [p], { shell: false }), 'receipt_not_regular'],
    ['a directory', (p: string): void => fs.mkdirSync(p), 'receipt_not_regular'],
  ])('a reply.md that is %s → turn rejected, needs_attention, nothing routed', async (_n, plant, reason) => {
    const config = {
      name: 'rx',
      agents: [
        { name: 'a', backend: SLOW },
        { name: 'b', backend: SLOW },
      ],
      objects: [{ name: 'rec', handler: 'recorder' }],
      topology: [['a', 'b']],
    };
    await h.engine.startSwarm({ config: { ...config, agents: [{ ...config.agents[0], reply_to: 'rec' }, config.agents[1]] } });
    await sendTask(h.engine.ctx, 'rx', 'a', 'go');
    const started = await waitEvent(h.engine, 'rx', (e) => e.event_type === 'turn_started', 'turn start');
    const dir = path.join(ws('rx', 'a'), '.genswarms', 'turns', String(started.metadata['turn']));
    await waitFor(async () => fs.existsSync(dir), 'turn dir');
    plant(path.join(dir, 'reply.md'));
    fs.writeFileSync(path.join(dir, 'done.json'), JSON.stringify({ v: 1, turn: started.metadata['turn'], status: 'ok' }));
    const rejected = await waitEvent(h.engine, 'rx', (e) => e.event_type === 'receipt_rejected', 'rejection');
    expect(rejected.metadata).toMatchObject({ reason, file: 'reply.md' });
    await waitEvent(h.engine, 'rx', (e) => e.event_type === 'agent_needs_attention', 'needs attention');
    expect((await h.engine.listMessages('rx')).messages).toEqual([]);
    expect((await eventsOf(h.engine, 'rx')).filter((e) => e.event_type === 'message_routed' || e.event_type === 'no_final_text')).toEqual(
      [],
    );
  });

  it('an .inbox replaced by a link before delivery → inbox_unsafe, nothing written through it', async () => {
    await h.engine.startSwarm({ config: { name: 'ib', agents: [{ name: 'a', backend: SLOW }] } });
    const elsewhere = fs.mkdtempSync(path.join(h.home, 'elsewhere-'));
    fs.mkdirSync(ws('ib', 'a'), { recursive: true });
    fs.rmSync(path.join(ws('ib', 'a'), '.inbox'), { recursive: true, force: true });
    fs.symlinkSync(elsewhere, path.join(ws('ib', 'a'), '.inbox'));
    await sendTask(h.engine.ctx, 'ib', 'a', 'go');
    const rejected = await waitEvent(h.engine, 'ib', (e) => e.event_type === 'receipt_rejected', 'rejection');
    expect(rejected.metadata).toMatchObject({ reason: 'inbox_unsafe' });
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('an outbox entry that cannot be removed is reported once while later files still route', async () => {
    await h.engine.startSwarm({
      config: {
        name: 'ob',
        agents: [
          { name: 'a', backend: SLOW },
          { name: 'b', backend: SLOW },
        ],
        topology: [['a', 'b']],
      },
    });
    const outbox = path.join(ws('ob', 'a'), '.outbox');
    fs.mkdirSync(path.join(outbox, 'd.json'), { recursive: true });
    fs.writeFileSync(path.join(outbox, 'd.json', 'keep'), 'x');
    await waitEvent(h.engine, 'ob', (e) => e.event_type === 'outbox_rejected', 'first report');
    fs.writeFileSync(path.join(outbox, 'e.json'), JSON.stringify({ to: 'b', content: 'later' }));
    await waitEvent(h.engine, 'ob', (e) => e.event_type === 'message_routed', 'later file routed');
    fs.writeFileSync(path.join(outbox, 'f.json'), JSON.stringify({ to: 'b', content: 'later still' }));
    await waitFor(
      async () => (await eventsOf(h.engine, 'ob')).filter((e) => e.event_type === 'message_routed').length === 2,
      'second file routed',
    );
    const reports = (await eventsOf(h.engine, 'ob')).filter((e) => e.event_type === 'outbox_rejected');
    expect(reports.map((e) => e.metadata)).toEqual([{ reason: 'receipt_not_regular', file: 'd.json' }]);
  });
});
