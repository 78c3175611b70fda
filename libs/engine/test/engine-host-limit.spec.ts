/**
 * A start, scale or add_agent the host's limits cannot hold is refused with 503 `host_limit` before anything is
 * created: no swarm row, no workspace, no process. The host here is this machine's, with one limit made small.
 */
import { readHostLimits, type HostReadings } from '@genswarms/runners';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../src/lib/errors/engine-error';
import { makeHarness, mockAgent, type Harness } from './harness';
import { refusal } from '@genswarms/test-kit';

/** This host with fs.inotify.max_user_watches at 64 + `room` (64 watches are kept free; a mock agent holds 1). */
function hostWithWatchRoom(room: number): () => HostReadings {
  return () => {
    const real = readHostLimits();
    return { ...real, inotifyWatches: { limit: real.inotifyWatches.used + 64 + room, used: real.inotifyWatches.used } };
  };
}

let h: Harness;
afterEach(async () => {
  await h.cleanup();
});

const counted = (name: string, count: number): Record<string, unknown> => ({ ...mockAgent(name), count });

describe('host_limit', () => {
  test('refuses a start past a limit with limit, value, need and fix, and creates nothing', async () => {
    h = await makeHarness({ readHostLimits: hostWithWatchRoom(20) });
    const e = await refusal(EngineError, h.engine.startSwarm({ config: { name: 's', agents: [counted('w', 50)] } }));
    expect(e.status).toBe(503);
    expect(e.toBody()).toMatchObject({
      error: 'host_limit',
      limit: 'fs.inotify.max_user_watches',
      need: expect.any(Number),
      value: expect.any(Number),
      fix: expect.stringMatching(/^sysctl -w fs\.inotify\.max_user_watches=\d+$/),
    });
    expect((e.toBody()['need'] as number) - (e.toBody()['value'] as number)).toBe(30);
    expect((await h.engine.listSwarms()).swarms).toEqual([]);
    expect(fs.existsSync(path.join(h.home, 'workspaces', 's'))).toBe(false);
  });

  test('starts a counted swarm that fits, then refuses a scale and an add past the limit, leaving it as it was', async () => {
    h = await makeHarness({ readHostLimits: hostWithWatchRoom(20) });
    await h.engine.startSwarm({ config: { name: 's', agents: [counted('w', 10)] } });
    const names = async (): Promise<string[]> => (await h.engine.getSwarm('s')).agents.map((a) => a.name);
    expect(await names()).toEqual(Array.from({ length: 10 }, (_, i) => `w_${i + 1}`));
    // the readings are of this host: the 10 running mock agents' watches are in `used` already
    const scale = await refusal(EngineError, h.engine.scaleAgents('s', 'w', 40));
    expect(scale.code).toBe('host_limit');
    expect(await names()).toHaveLength(10);
    expect(fs.readdirSync(path.join(h.home, 'workspaces', 's')).sort()).toEqual((await names()).sort());
  });

  test('refuses add_agent when no room is left, and adds once there is', async () => {
    let room = 5;
    const host = hostWithWatchRoom(0);
    h = await makeHarness({
      readHostLimits: () => ({ ...host(), inotifyWatches: { ...host().inotifyWatches, limit: (host().inotifyWatches.limit ?? 0) + room } }),
    });
    await h.engine.startSwarm({ config: { name: 's', agents: [mockAgent('a')] } });
    room = 0;
    const e = await refusal(EngineError, h.engine.addAgent('s', mockAgent('b') as never));
    expect(e.code).toBe('host_limit');
    expect((await h.engine.getSwarm('s')).agents.map((a) => a.name)).toEqual(['a']);
    room = 5;
    await h.engine.addAgent('s', mockAgent('b') as never);
    expect((await h.engine.getSwarm('s')).agents.map((a) => a.name)).toEqual(['a', 'b']);
  });

  test('charges the agents of a start still in flight: of two starts at once that fit only alone, one is refused', async () => {
    h = await makeHarness({ readHostLimits: hostWithWatchRoom(30) });
    const results = await Promise.allSettled([
      h.engine.startSwarm({ config: { name: 'one', agents: [counted('w', 20)] } }),
      h.engine.startSwarm({ config: { name: 'two', agents: [counted('w', 20)] } }),
    ]);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as EngineError] : []));
    expect(refused.map((e) => e.code)).toEqual(['host_limit']);
    expect(refused[0]?.message).toContain('(with 20 agent(s) of other starts in flight)');
    expect((await h.engine.listSwarms()).swarms).toHaveLength(1);
  });

  test('reports the list of a stopped counted swarm with every instance counted', async () => {
    h = await makeHarness();
    await h.engine.startSwarm({ config: { name: 's', agents: [counted('w', 3), mockAgent('boss')], topology: [['boss', 'w']] } });
    expect((await h.engine.getTopology('s')).topology).toEqual([{ from: 'boss', targets: ['w_1', 'w_2', 'w_3'] }]);
    await h.engine.stopSwarm('s');
    expect((await h.engine.listSwarms()).swarms[0]).toMatchObject({ name: 's', status: 'stopped', agent_count: 4 });
  });
});
