import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_OUTPUT_GRACE_MS, liveDetachedChildren, spawnDetached, type DetachedChild } from '../src/index';

/** Every exit event of the child, from the moment it was started. */
function exits(child: DetachedChild): { all: Array<[number | null, string | null]>; first: Promise<[number | null, string | null]> } {
  const all: Array<[number | null, string | null]> = [];
  const first = new Promise<[number | null, string | null]>((resolve) =>
    child.on('exit', (code: number | null, signal: string | null) => {
      all.push([code, signal]);
      resolve([code, signal]);
    }),
  );
  return { all, first };
}

const sh = (script: string): Promise<DetachedChild> => spawnDetached({ file: '/bin/sh', argv: ['sh', '-c', script], env: {}, cwd: '/' });

describe('spawnDetached exits (one descriptor per child, no pidfd while the pipe is open)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'procctl-exit-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each<[string, string, [number | null, string | null]]>([
    ['a normal exit', 'echo bye; exit 9', [9, null]],
    ['an exit with no output at all', 'exit 0', [0, null]],
    ['a signal', 'kill -TERM $$', [null, 'SIGTERM']],
    ['SIGKILL after output on both streams', 'echo out; echo err >&2; kill -KILL $$', [null, 'SIGKILL']],
  ])('reports %s', async (_name, script, expected) => {
    const child = await sh(script);
    child.stdout.resume();
    expect(await exits(child).first).toEqual(expected);
  });

  it('reports the exit of a child whose grandchild keeps the pipe open, within a bound, once', async () => {
    const child = await sh('/bin/sleep 30 & /bin/sleep 0.2; exit 5'); // exits after it was registered
    const seen = exits(child);
    child.stdout.resume();
    const started = Date.now();
    try {
      expect(await seen.first).toEqual([5, null]);
      expect(Date.now() - started).toBeLessThan(EXIT_OUTPUT_GRACE_MS + 2000);
    } finally {
      process.kill(-child.pid, 'SIGKILL');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.all).toHaveLength(1);
  });

  it('reports the exit of a child whose output nobody reads (the pipe end is never seen)', async () => {
    const child = await sh('echo unread; /bin/sleep 0.2; exit 4');
    expect(await exits(child).first).toEqual([4, null]);
  });

  it('does not report an exit when a running child closes its stdout and stderr early; the later exit is reported', async () => {
    const child = await sh('exec >&- 2>&-; /bin/sleep 1; exit 6');
    const seen = exits(child);
    const ended = once(child.stdout, 'end');
    child.stdout.resume();
    const started = Date.now();
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.all).toEqual([]); // the pipe ended, the child still runs
    expect(await seen.first).toEqual([6, null]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('loses no exit and reports none twice when 200 children exit at once, each with its own code', async () => {
    const fifo = join(dir, 'go');
    expect(spawnSync('/usr/bin/mkfifo', [fifo]).status).toBe(0);
    const held = openSync(fifo, constants.O_RDWR); // a writer exists: the children's open does not block
    try {
      const children = await Promise.all(Array.from({ length: 200 }, (_, i) => sh(`read x < ${fifo}; exit ${i}`)));
      const seen = children.map((child) => {
        child.stdout.resume();
        return exits(child);
      });
      writeSync(held, 'x\n'.repeat(200)); // each `read` takes one line: all 200 exit now
      const codes = await Promise.all(seen.map((s) => s.first));
      expect(codes).toEqual(Array.from({ length: 200 }, (_, i) => [i, null]));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.every((s) => s.all.length === 1)).toBe(true);
      expect(liveDetachedChildren()).toBe(0);
    } finally {
      closeSync(held);
    }
  });

  it("never takes Node's own children: child_process exits keep their codes while detached children exit", async () => {
    const detached = Array.from({ length: 20 }, (_, i) =>
      sh(`exit ${i}`).then(async (c) => {
        const first = exits(c).first;
        c.stdout.resume();
        return (await first)[0];
      }),
    );
    const nodeChildren = Array.from({ length: 20 }, (_, i) => spawn('/bin/sh', ['-c', `exit ${i + 100}`], { stdio: 'ignore' }));
    const nodeCodes = await Promise.all(nodeChildren.map(async (c) => ((await once(c, 'exit')) as [number | null])[0]));
    const detachedCodes = await Promise.all(detached);
    expect(nodeCodes).toEqual(Array.from({ length: 20 }, (_, i) => i + 100));
    expect(detachedCodes).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('holds one descriptor for a child that closed its output but still runs (its pidfd), none after its exit', async () => {
    const warm = await sh('exit 0');
    warm.stdout.resume();
    await exits(warm).first;
    const before = readdirSync('/proc/self/fd').length;
    const child = await sh('exec >&- 2>&-; exec /bin/sleep 30');
    const seen = exits(child);
    const ended = once(child.stdout, 'close');
    child.stdout.resume();
    await ended;
    await new Promise((resolve) => setTimeout(resolve, 200)); // the reaper opened the pidfd
    expect(readdirSync('/proc/self/fd').length - before).toBeLessThanOrEqual(1);
    process.kill(child.pid, 'SIGKILL');
    expect(await seen.first).toEqual([null, 'SIGKILL']);
    expect(readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before);
  });
});
