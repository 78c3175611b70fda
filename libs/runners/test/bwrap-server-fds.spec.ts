import { readdirSync } from 'node:fs';
import type { RunnerHandle } from '../src/index';
import { createBwrapRunner } from '../src/index';
import { haveBinary, makeContext, makeSandboxDirs, makeSpec } from './support';

const suite = haveBinary('bwrap') ? describe : describe.skip;
if (!haveBinary('bwrap')) console.warn('SKIPPED bwrap-server-fds: bubblewrap is not installed');

/** Descriptors this process (the server, here) holds now. */
function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

const AGENTS = 6;

suite("bwrap runner: the server's descriptors per running agent", () => {
  const dirs: Array<ReturnType<typeof makeSandboxDirs>> = [];
  const handles: RunnerHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 200 })));
    for (const d of dirs.splice(0)) d.cleanup();
  });

  async function startAgent(i: number): Promise<{ handle: RunnerHandle; firstLine: Promise<string> }> {
    const d = makeSandboxDirs();
    dirs.push(d);
    const ctx = makeContext(d.home);
    const runner = createBwrapRunner();
    const spec = makeSpec({
      backend: 'bwrap',
      agent: `agent${i}`,
      workspace: d.workspace,
      client: { command: [process.execPath, '-e', 'process.stderr.write("up\\n"); setTimeout(() => {}, 60000)'] },
    });
    const handle = await runner.start(runner.plan(spec, ctx), ctx);
    handles.push(handle);
    return { handle, firstLine: new Promise((resolve) => handle.onOutput((_stream, line) => resolve(line))) };
  }

  it(`holds at most one per running agent (${AGENTS} agents): the client's stdout and stderr are one pipe, no pidfd`, async () => {
    // the first start pays the process-wide costs once (the addon's reaper, libuv's signal pipe)
    await (await startAgent(0)).handle.stop({ graceMs: 200 });
    handles.splice(0);
    const before = openFds();
    const started = await Promise.all(Array.from({ length: AGENTS }, (_, i) => startAgent(i + 1)));
    expect(openFds() - before).toBeLessThanOrEqual(AGENTS);
    const lines = await Promise.all(started.map((s) => s.firstLine));
    expect(lines).toEqual(Array.from({ length: AGENTS }, () => 'up')); // the client's stderr reaches its output
    expect(openFds() - before).toBeLessThanOrEqual(AGENTS);
    expect((await Promise.all(started.map((s) => s.handle.health()))).every((h) => h === 'running')).toBe(true);
  });
});
