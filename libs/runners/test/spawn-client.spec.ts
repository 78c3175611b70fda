import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { RunnerError } from '../src/lib/errors/runner-error';
import { attachChild } from '../src/lib/process/child-handle';
import { clientSpawnMode, setClientSpawnModeForTests, spawnClient, type SpawnMode } from '../src/lib/process/spawn-client';

afterAll(() => setClientSpawnModeForTests(undefined));

it('starts clients with posix_spawn off the main thread when the procctl addon is built (as npm ci builds it)', () => {
  expect(clientSpawnMode()).toBe('procctl');
});

describe.each<[SpawnMode]>([['procctl'], ['node']])('spawnClient (%s): the same client either way', (mode) => {
  beforeAll(() => setClientSpawnModeForTests(mode));

  it('argv, exactly env, cwd, own session; output lines (stderr too) and the exit code reach the handle', async () => {
    const child = await spawnClient({
      file: '/bin/sh',
      args: ['-c', 'echo "$0:$GS_X:$(pwd)"; tr "\\0" " " < /proc/$$/environ; echo; echo oops >&2; exit 4'],
      cwd: '/tmp',
      env: { GS_X: 'x1' },
      agent: 'a1',
    });
    const handle = attachChild(child, { description: {} as never });
    const lines: string[] = [];
    handle.onOutput((stream, line) => lines.push(`${stream}:${line}`));
    const exited = new Promise<unknown>((resolve) => handle.onExit((code, signal) => resolve([code, signal])));
    expect(await exited).toEqual([4, null]);
    // procctl: stdout and stderr are one pipe (one server descriptor per client), so every line is `stdout`
    expect(lines).toEqual(['stdout:/bin/sh:x1:/tmp', 'stdout:GS_X=x1 ', mode === 'procctl' ? 'stdout:oops' : 'stderr:oops']);
  });

  it('a line written after the client exited, by a child still holding its output, comes before the exit', async () => {
    const child = await spawnClient({
      file: '/bin/sh',
      args: ['-c', '(sleep 0.3; echo late) & exit 0'],
      cwd: '/tmp',
      env: {},
      agent: 'a1',
    });
    const handle = attachChild(child, { description: {} as never });
    const lines: string[] = [];
    handle.onOutput((_stream, line) => lines.push(line));
    const exited = new Promise<unknown>((resolve) => handle.onExit((code) => resolve(code)));
    expect(await exited).toBe(0);
    expect(lines).toEqual(['late']);
  });

  it('a detached client leads its own process group, and a signal is reported by name', async () => {
    const child = await spawnClient({ file: '/bin/sleep', args: ['30'], cwd: '/', env: {}, agent: 'a1' });
    const pid = child.pid as number;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])).toBe(pid);
    const exit = once(child, 'exit');
    process.kill(-pid, 'SIGTERM');
    expect(await exit).toEqual([null, 'SIGTERM']);
  });

  it('a missing client binary is start_failed with ENOENT', async () => {
    const err = await spawnClient({ file: '/nonexistent/bin/client', args: [], cwd: '/', env: {}, agent: 'a9' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunnerError);
    expect(err).toMatchObject({ code: 'start_failed', message: 'client could not be started: ENOENT' });
  });
});
