/** `Engine.detach()` (server stop): headless processes do not outlive the server; turns survive for recovery. */
import { makeHarness, waitEvent, waitFor, type Harness } from './harness';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidOf(h: Harness, swarm: string, agent: string): Promise<number> {
  return waitFor(async () => {
    const d = (await h.engine.store.getSession(swarm, agent))?.description as { pid?: unknown } | null | undefined;
    return typeof d?.pid === 'number' ? d.pid : undefined;
  }, `pid of ${agent}`);
}

describe('detach on server stop', () => {
  let h: Harness;
  const pids: number[] = [];
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.cleanup();
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(-pid, 'SIGKILL'); // only groups this test started
  });

  it('stops a local process (no orphan to race the next one) and keeps the in-flight turn for recovery', async () => {
    const config = {
      name: 'dt',
      agents: [
        { name: 'loc', backend: 'local', network: 'open', client: { command: ['/bin/sleep', '1000'] } },
        { name: 'm', backend: { type: 'mock', opts: { replies: ['answer {{content}}'], delay_ms: 300 } } },
      ],
    };
    await h.engine.startSwarm({ config });
    const first = await pidOf(h, 'dt', 'loc');
    pids.push(first);
    expect(alive(first)).toBe(true);
    await h.engine.sendTask('dt', 'm', 'kept');
    const started = await waitEvent(h.engine, 'dt', (e) => e.event_type === 'turn_started', 'turn start');
    const turn = String(started.metadata['turn']);
    await waitFor(async () => (await h.engine.store.getTurn(turn))?.delivered, 'delivered');
    await h.engine.detach();
    expect(alive(first)).toBe(false);

    h.engine = await h.open();
    const second = await waitFor(async () => {
      const p = await pidOf(h, 'dt', 'loc');
      return p !== first ? p : undefined;
    }, 'a new local process');
    pids.push(second);
    await waitFor(async () => (await h.engine.store.getTurn(turn))?.status === 'completed', 'the open turn completes after recovery');
    expect((await h.engine.listTurns('dt', 'm')).turns).toMatchObject([{ id: turn, status: 'completed', reply_preview: 'answer kept' }]);
  });
});
