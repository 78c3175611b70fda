/**
 * The headless agent handles inbox files strictly in seq order and keeps a seq high-water mark
 * (`.genswarms/agent-state.json`): a file written with a seq at or below it is never answered. So
 * every inbox file the engine writes for an agent must carry a seq above every seq written before,
 * in the order the files are written — across awaiting reorders, purges and leftover workspaces.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeHarness, waitEvent, waitFor, type Harness } from './harness';

function inboxFiles(dir: string): { seq: number; turn: string; from: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { seq: number; turn: string; from: string });
}

describe('inbox seq order (what the agent relies on)', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(() => h.cleanup());

  it('a message dispatched ahead of a queued task while awaiting still gets the higher seq (dispatch order = seq order)', async () => {
    const config = {
      name: 'aw',
      agents: [
        {
          name: 'p',
          backend: { type: 'mock', opts: { replies: ['<<SWARM_MSG:TO=w:START>>go<<SWARM_MSG:END>>', 'noted', 'done'], delay_ms: 1000 } },
        },
        { name: 'w', backend: { type: 'mock', opts: { delay_ms: 86_400_000 } } },
      ],
      topology: [
        ['p', 'w'],
        ['w', 'p'],
      ],
    };
    await h.engine.startSwarm({ config });
    await h.engine.sendTask('aw', 'p', 'task one');
    await waitEvent(h.engine, 'aw', (e) => e.event_type === 'turn_started' && e.agent === 'p', 'p busy');
    // While p is busy: a second task, then a message. p's turn ends by sending to w (edge back): awaiting,
    // so the message is dispatched before the task that was queued first.
    await h.engine.sendTask('aw', 'p', 'task two');
    await h.engine.sendMessage('aw', { from: 'w', to: 'p', content: 'result from w' });
    const turns = await waitFor(
      async () => {
        const t = (await h.engine.store.listTurns('aw', 'p', 10)).filter((x) => x.delivered);
        return t.length === 3 ? t : undefined;
      },
      'three delivered turns of p',
      { timeoutMs: 20000 },
    );
    const dispatchOrder = [...turns].reverse();
    expect(dispatchOrder.map((t) => t.content)).toEqual(['task one', 'result from w', 'task two']);
    expect(dispatchOrder.map((t) => t.seq)).toEqual([1, 2, 3]);
    const files = inboxFiles(path.join(h.home, 'workspaces', 'aw', 'p', '.inbox')).sort((a, b) => a.seq - b.seq);
    expect(files.map((f) => f.turn)).toEqual(dispatchOrder.map((t) => t.id));
  });

  it('after a purge, a named workspace that keeps old inbox files and agent state gets seqs above them', async () => {
    const ws = path.join(h.named, 'named-ws');
    const config = { name: 'pg', agents: [{ name: 'a', workspace: ws, backend: { type: 'mock', opts: {} } }] };
    await h.engine.startSwarm({ config });
    for (const t of ['one', 'two']) {
      await h.engine.sendTask('pg', 'a', t);
      await waitFor(
        async () => (await h.engine.listTurns('pg', 'a')).turns.find((x) => x.status === 'completed' && x.reply_preview === t),
        `turn ${t}`,
      );
    }
    await h.engine.stopSwarm('pg', { purge: true });
    // What a genswarms-agent leaves behind: its high-water mark, above the files still present.
    fs.mkdirSync(path.join(ws, '.genswarms'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.genswarms', 'agent-state.json'), JSON.stringify({ v: 1, processedThrough: 7 }));
    await h.engine.startSwarm({ config });
    await waitFor(async () => (await h.engine.getAgent('pg', 'a')).state === 'idle', 'a idle');
    await h.engine.sendTask('pg', 'a', 'three');
    await waitFor(async () => (await h.engine.listTurns('pg', 'a')).turns.find((x) => x.status === 'completed'), 'turn three');
    const seqs = inboxFiles(path.join(ws, '.inbox'))
      .map((f) => f.seq)
      .sort((a, b) => a - b);
    expect(seqs).toEqual([1, 2, 8]);
    expect(fs.readdirSync(path.join(ws, '.inbox')).sort()).toEqual(['0001__operator.json', '0002__operator.json', '0008__operator.json']);
  });

  test.each([
    ['a hostile seq beyond 15 digits', '9999999999999999_x.json'],
    ['a non-numeric name', 'abcd_x.json'],
    ['a directory', '0050_dir.json'],
  ])('leftover inbox entries that are not inbox files (%s) do not move the counter', async (_what, name) => {
    const ws = path.join(h.named, 'ws-hostile');
    fs.mkdirSync(path.join(ws, '.inbox'), { recursive: true });
    if (name.startsWith('0050')) fs.mkdirSync(path.join(ws, '.inbox', name));
    else fs.writeFileSync(path.join(ws, '.inbox', name), '{}');
    fs.writeFileSync(path.join(ws, '.inbox', '0003_x.json'), '{}');
    await h.engine.startSwarm({ config: { name: 'hx', agents: [{ name: 'a', workspace: ws, backend: { type: 'mock', opts: {} } }] } });
    await waitFor(async () => (await h.engine.getAgent('hx', 'a')).state === 'idle', 'a idle');
    await h.engine.sendTask('hx', 'a', 'go');
    const turn = await waitFor(async () => (await h.engine.store.listTurns('hx', 'a', 1))[0], 'a turn');
    expect(turn.seq).toBe(4);
  });
});
