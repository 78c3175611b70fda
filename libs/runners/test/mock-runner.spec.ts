import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { createMockRunner } from '../src/index';
import { makeContext, makeSandboxDirs, makeSpec, waitForFile } from './support';

describe('mock runner', () => {
  let dirs: ReturnType<typeof makeSandboxDirs>;
  beforeEach(() => {
    dirs = makeSandboxDirs();
  });
  afterEach(() => dirs.cleanup());

  it('writes real receipts, cycling replies with {{content}} substituted literally', async () => {
    const runner = createMockRunner();
    const ctx = makeContext(dirs.home);
    const spec = makeSpec({
      backend: 'mock',
      workspace: dirs.workspace,
      network: 'isolated',
      backendOpts: { replies: ['one: {{content}}', 'two'] },
    });
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    const turns = path.join(dirs.workspace, '.genswarms', 'turns');
    for (const [id, content] of [
      ['t1', '$& {{content}} $1'],
      ['t2', 'b'],
      ['t3', 'c'],
    ] as const) {
      await handle.deliver({ turnId: id, seq: 1, from: '_operator', content, clientTurnsDir: turns });
      const done = JSON.parse(await waitForFile(path.join(turns, id, 'done.json'))) as unknown;
      expect(done).toEqual({ v: 1, turn: id, status: 'ok' });
      expect(statSync(path.join(turns, id, 'done.json')).nlink).toBe(1);
    }
    expect(readFileSync(path.join(turns, 't1', 'reply.md'), 'utf8')).toBe('one: $& {{content}} $1');
    expect(readFileSync(path.join(turns, 't2', 'reply.md'), 'utf8')).toBe('two');
    expect(readFileSync(path.join(turns, 't3', 'reply.md'), 'utf8')).toBe('one: c');
    await handle.stop();
    expect(await handle.health()).toBe('exited');
    await expect(handle.deliver({ turnId: 't4', seq: 2, from: 'x', content: '', clientTurnsDir: turns })).rejects.toMatchObject({
      code: 'runner_error',
    });
  });

  it.each([[{ replies: 'nope' }], [{ replies: [1] }], [{ delay_ms: -1 }], [{ delay_ms: 1.5 }]])(
    'refuses backend.opts %j (validation_failed)',
    (opts) => {
      const spec = makeSpec({ backend: 'mock', workspace: dirs.workspace, backendOpts: opts });
      expect(() => createMockRunner().plan(spec, makeContext(dirs.home))).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    },
  );
  it('fail_start: true plans but refuses to start (start_failed); a non-boolean is refused at plan', async () => {
    const runner = createMockRunner();
    const ctx = makeContext(dirs.home);
    const spec = (opts: Record<string, unknown>) =>
      makeSpec({ backend: 'mock', workspace: dirs.workspace, network: 'isolated', backendOpts: opts });
    const plan = runner.plan(spec({ fail_start: true }), ctx);
    await expect(runner.start(plan, ctx)).rejects.toMatchObject({ code: 'start_failed' });
    expect(() => runner.plan(spec({ fail_start: 'yes' }), ctx)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
