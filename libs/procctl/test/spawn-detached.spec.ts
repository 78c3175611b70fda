import { readFileSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import { liveDetachedChildren, spawnDetached, SpawnFailedError, SPAWNS_IN_POOL, type DetachedChild } from '../src/index';

function collect(child: DetachedChild): () => string {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  return () => out;
}

async function exitOf(child: DetachedChild): Promise<[number | null, string | null]> {
  if (child.exitCode !== null || child.signalCode !== null) return [child.exitCode, child.signalCode];
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return [code, signal];
}

/** Field `name` of /proc/<pid>/status. */
function statusField(pid: number, name: string): string {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  return (line ?? '').slice(name.length + 1).trim();
}

describe('spawnDetached (posix_spawn on a thread-pool thread)', () => {
  it('runs the file with exactly argv, env and cwd; stdout and stderr are one pipe, in order; the exit code is reported and the child reaped', async () => {
    const child = await spawnDetached({
      file: '/bin/sh',
      argv: ['sh', '-c', 'echo "$0 $A"; tr "\\0" "\\n" < /proc/$$/environ; echo to-err >&2; pwd; exit 7'],
      env: { A: 'one' },
      cwd: '/tmp',
    });
    const out = collect(child);
    const closed = once(child.stdout, 'close');
    expect(child.stderr).toBeNull();
    expect(await exitOf(child)).toEqual([7, null]);
    await closed;
    expect(out()).toBe('sh one\nA=one\nto-err\n/tmp\n');
    expect(existsSync(`/proc/${child.pid}`)).toBe(false); // reaped, not a zombie
  });

  it('starts the child in its own session (detached), stdin /dev/null, an empty signal mask and no signal ignored (Node ignores SIGPIPE)', async () => {
    const child = await spawnDetached({ file: '/bin/sleep', argv: ['sleep', '30'], env: {}, cwd: '/' });
    try {
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      expect(Number(fields[3])).toBe(child.pid); // session id
      expect(Number(fields[2])).toBe(child.pid); // process group
      expect(statusField(child.pid, 'SigIgn')).toBe('0000000000000000');
      expect(statusField(child.pid, 'SigBlk')).toBe('0000000000000000');
      const stdin = readFileSync(`/proc/${child.pid}/fdinfo/0`, 'utf8');
      expect(Number.parseInt(/flags:\s+([0-7]+)/.exec(stdin)?.[1] ?? '7', 8) & 3).toBe(0); // O_RDONLY
    } finally {
      process.kill(child.pid, 'SIGKILL');
    }
    expect(await exitOf(child)).toEqual([null, 'SIGKILL']);
  });

  it('rejects SpawnFailedError with the errno name when the exec fails, and leaves no child', async () => {
    const failed = await spawnDetached({ file: '/nonexistent/client', argv: ['client'], env: {}, cwd: '/' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(SpawnFailedError);
    expect((failed as SpawnFailedError).errno).toBe('ENOENT');
    expect(liveDetachedChildren()).toBe(0);
  });

  it('refuses a relative file or cwd and a NUL in argv', async () => {
    await expect(spawnDetached({ file: 'sh', argv: ['sh'], env: {}, cwd: '/' })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(spawnDetached({ file: '/bin/sh', argv: ['sh'], env: {}, cwd: 'tmp' })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(spawnDetached({ file: '/bin/sh', argv: ['sh', 'a\0b'], env: {}, cwd: '/' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('reaps many children started at once and exiting at once, each with its own code', async () => {
    const children = await Promise.all(
      Array.from({ length: 40 }, (_, i) => spawnDetached({ file: '/bin/sh', argv: ['sh', '-c', `exit ${i}`], env: {}, cwd: '/' })),
    );
    const exits = await Promise.all(children.map(exitOf));
    expect(SPAWNS_IN_POOL).toBeLessThan(4); // libuv's default pool: some threads stay free for fs work
    expect(exits.map(([code]) => code)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(liveDetachedChildren()).toBe(0);
  });

  it('emits the exit only after the output the child wrote last was read (20 children, 500 lines each, then exit)', async () => {
    const children = await Promise.all(
      Array.from({ length: 20 }, () =>
        spawnDetached({
          file: '/bin/sh',
          argv: ['sh', '-c', 'i=0; while [ $i -lt 500 ]; do echo "line $i"; i=$((i+1)); done; exit 3'],
          env: {},
          cwd: '/',
        }),
      ),
    );
    const counts = await Promise.all(
      children.map(async (child) => {
        let lines = 0;
        child.stdout.setEncoding('utf8').on('data', (d: string) => (lines += d.split('\n').length - 1));
        expect(await exitOf(child)).toEqual([3, null]);
        return lines; // counted when the exit arrived
      }),
    );
    expect(counts).toEqual(Array.from({ length: 20 }, () => 500));
  });

  it('still reports the exit when a descendant keeps the output pipe open', async () => {
    const child = await spawnDetached({ file: '/bin/sh', argv: ['sh', '-c', '/bin/sleep 5 & exit 0'], env: {}, cwd: '/' });
    child.stdout.resume();
    try {
      expect(await exitOf(child)).toEqual([0, null]); // after EXIT_OUTPUT_GRACE_MS, not when the sleep ends
    } finally {
      process.kill(-child.pid, 'SIGKILL');
    }
  });
});
