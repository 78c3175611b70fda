import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { decodeWaitStatus, parseZombieStat, readZombieExit } from './zombie-exit';
import { waitFor } from '@genswarms/test-kit';

/** A stat line as the kernel writes it, with `fields` from field 3 (state) on, 52 fields in all. */
function statLine(comm: string, state: string, ppid: number, exitCode: number): string {
  const rest = Array.from({ length: 50 }, (_, i) => String(i + 100));
  rest[0] = state;
  rest[1] = String(ppid);
  rest[49] = String(exitCode);
  return `4242 (${comm}) ${rest.join(' ')}\n`;
}

describe('parseZombieStat', () => {
  it.each([
    ['exit 0', statLine('xargs', 'Z', 77, 0), { code: 0, signal: null }],
    ['exit 123', statLine('xargs', 'Z', 77, 123 << 8), { code: 123, signal: null }],
    ['exit 255', statLine('xargs', 'Z', 77, 255 << 8), { code: 255, signal: null }],
    ['killed by SIGKILL', statLine('xargs', 'Z', 77, 9), { code: null, signal: 'SIGKILL' }],
    ['killed by SIGSEGV with a core', statLine('xargs', 'Z', 77, 11 | 0x80), { code: null, signal: 'SIGSEGV' }],
    ['a comm with spaces and parentheses', statLine('x) Z 77 (y', 'Z', 77, 7 << 8), { code: 7, signal: null }],
  ])('reads the wait status of a zombie child: %s', (_name, line, expected) => {
    expect(parseZombieStat(line, 77)).toEqual(expected);
  });

  it.each([
    ['a running process', statLine('xargs', 'S', 77, 0)],
    ['a zombie of another parent (a reused pid)', statLine('xargs', 'Z', 78, 7 << 8)],
    ['a comm that fakes the fields', statLine('x) Z 77', 'R', 77, 0)],
    ['no closing parenthesis', '4242 xargs Z 77 1 2 3'],
    ['too few fields', '4242 (xargs) Z 77 1 2'],
    ['a non-numeric status', statLine('xargs', 'Z', 77, 0).replace(/ 0\n$/, ' x\n')],
    ['an empty line', ''],
  ])('refuses %s', (_name, line) => {
    expect(parseZombieStat(line, 77)).toBeUndefined();
  });

  it('does not report a stopped status as an exit', () => {
    expect(decodeWaitStatus((19 << 8) | 0x7f)).toBeUndefined();
  });
});

/**
 * A real zombie: a parent node process starts a child that exits, and the parent is stopped
 * (SIGSTOP) before it can reap it, exactly like a tmux server that has not run waitpid yet.
 */
const PARENT_SCRIPT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', process.argv[1]], { stdio: 'ignore' });
child.on('exit', () => setTimeout(() => process.exit(0), 100));
process.stdout.write(String(child.pid) + '\\n');
`;

function startParent(childScript: string): Promise<{ parent: ChildProcess; childPid: number }> {
  const parent = spawn(process.execPath, ['-e', PARENT_SCRIPT, childScript], { stdio: ['ignore', 'pipe', 'ignore'], shell: false });
  return new Promise((resolve, reject) => {
    parent.on('error', reject);
    parent.stdout?.once('data', (chunk: Buffer) => {
      process.kill(parent.pid as number, 'SIGSTOP');
      resolve({ parent, childPid: Number(chunk.toString('utf8').trim()) });
    });
  });
}

async function waitForZombie(pid: number): Promise<void> {
  const isZombie = (): boolean => {
    try {
      const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return line.slice(line.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
      throw new Error(`process ${pid} vanished before it became a zombie`);
    }
  };
  await waitFor(isZombie, `process ${pid} to become a zombie`, { timeoutMs: 5000 });
}

describe('readZombieExit on real processes', () => {
  const parents: ChildProcess[] = [];
  afterEach(() => {
    for (const p of parents.splice(0)) {
      if (p.pid !== undefined && p.exitCode === null) {
        process.kill(p.pid, 'SIGCONT');
        p.kill('SIGKILL');
      }
    }
  });

  it.each([
    ['an exit code', 'setTimeout(() => process.exit(7), 200)', { code: 7, signal: null }],
    ['a signal', "setTimeout(() => process.kill(process.pid, 'SIGTERM'), 200)", { code: null, signal: 'SIGTERM' }],
  ])('reads %s from an unreaped child, only for its own parent, and nothing once reaped', async (_name, script, expected) => {
    const { parent, childPid } = await startParent(script);
    parents.push(parent);
    await waitForZombie(childPid);
    expect(await readZombieExit(childPid, parent.pid as number)).toEqual(expected);
    expect(await readZombieExit(childPid, process.pid)).toBeUndefined();
    const exited = new Promise((r) => parent.once('exit', r));
    process.kill(parent.pid as number, 'SIGCONT');
    await exited;
    expect(await readZombieExit(childPid, parent.pid as number)).toBeUndefined();
  });

  it('reads nothing for a live process or hostile pids', async () => {
    expect(await readZombieExit(process.pid, process.ppid)).toBeUndefined();
    for (const pid of [0, 1, -5, Number.NaN, 2 ** 60]) expect(await readZombieExit(pid, process.pid)).toBeUndefined();
  });
});
