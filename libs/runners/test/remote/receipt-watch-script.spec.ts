/**
 * The watcher the ssh and swarm backends run next to the agent (assets/genswarms-receipt-watch), as a real node
 * process on a real directory: it says which watched turn has a done.json, never a byte of it, ignores requests
 * that are not a turn id, and exits when its stdin closes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RECEIPT_WATCH_SCRIPT_PATH } from '../../src/lib/remote/receipt-watch';
import { PUSH_HELLO } from '../../src/lib/remote/receipt-push';

interface Watcher {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[];
  next(match: (line: string) => boolean, ms?: number): Promise<string>;
}

function startWatcher(ws: string): Watcher {
  const child = spawn(process.execPath, [RECEIPT_WATCH_SCRIPT_PATH, ws], { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  const lines: string[] = [];
  let buf = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (b: Buffer) => {
    buf += b.toString('utf8');
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of [...waiters]) w();
  });
  const next = (match: (line: string) => boolean, ms = 10000): Promise<string> =>
    new Promise((resolve, reject) => {
      const look = (): void => {
        const i = lines.findIndex(match);
        if (i === -1) return;
        const [line] = lines.splice(i, 1);
        clearTimeout(timer);
        waiters.delete(look);
        resolve(line ?? '');
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching line in ${ms} ms (saw ${JSON.stringify(lines)})`));
      }, ms);
      waiters.add(look);
      look();
    });
  return { child, lines, next };
}

function writeReceipt(dir: string, turn: string): void {
  writeFileSync(path.join(dir, '.done.tmp'), JSON.stringify({ v: 1, turn, status: 'ok', secret: 'NEVER-PRINTED' }));
  renameSync(path.join(dir, '.done.tmp'), path.join(dir, 'done.json'));
}

describe('genswarms-receipt-watch (real node process)', () => {
  let root: string;
  let w: Watcher;
  const turnDir = (id: string): string => path.join(root, '.genswarms', 'turns', id);

  beforeEach(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'gs-receipt-watch-'));
    for (const id of ['turn_a', 'turn_b', 'turn_c']) mkdirSync(turnDir(id), { recursive: true, mode: 0o700 });
    w = startWatcher(root);
    await w.next((l) => l === PUSH_HELLO);
  });
  afterEach(() => {
    w.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('says `r <turn>` once done.json is renamed into a watched turn dir, and never prints its bytes', async () => {
    w.child.stdin.write('w turn_a\n');
    await new Promise((r) => setTimeout(r, 100));
    expect(w.lines).toEqual([]);
    writeReceipt(turnDir('turn_a'), 'turn_a');
    expect(await w.next((l) => l.startsWith('r '))).toBe('r turn_a');
    await new Promise((r) => setTimeout(r, 150));
    expect(w.lines.join('\n')).not.toContain('NEVER-PRINTED');
    expect(w.lines.filter((l) => l === 'r turn_a')).toEqual([]); // once per request
  });

  it('reports a receipt that was already there when asked, and a link as present (the host judges it)', async () => {
    writeReceipt(turnDir('turn_b'), 'turn_b');
    symlinkSync('/etc/passwd', path.join(turnDir('turn_c'), 'done.json'));
    w.child.stdin.write('w turn_b\nw turn_c\n');
    expect(await w.next((l) => l === 'r turn_b')).toBe('r turn_b');
    expect(await w.next((l) => l === 'r turn_c')).toBe('r turn_c');
  });

  test.each([
    ['a path', 'w ../../etc\n'],
    ['an absolute path', 'w /etc\n'],
    ['upper case', 'w TURN_A\n'],
    ['a long line', `w ${'a'.repeat(5000)}\n`],
    ['NUL', 'w turn_a\0\n'],
    ['another verb', 'r turn_a\n'],
  ])('ignores a request naming %s', async (_name, line) => {
    writeReceipt(turnDir('turn_a'), 'turn_a');
    w.child.stdin.write(line);
    await new Promise((r) => setTimeout(r, 200));
    expect(w.lines).toEqual([]);
    w.child.stdin.write('w turn_a\n'); // and still answers a good one after it
    expect(await w.next((l) => l === 'r turn_a')).toBe('r turn_a');
  });

  it('says `o` when an entry appears in .outbox', async () => {
    mkdirSync(path.join(root, '.outbox'));
    await new Promise((r) => setTimeout(r, 120)); // its 50 ms tick attaches the outbox watch
    writeFileSync(path.join(root, '.outbox', '0001.json'), '{}');
    expect(await w.next((l) => l === 'o')).toBe('o');
  });

  it('exits 0 when its stdin closes (the host left or the link dropped)', async () => {
    const code = new Promise<number | null>((resolve) => w.child.on('exit', (c) => resolve(c)));
    w.child.stdin.end();
    expect(await code).toBe(0);
  });
});
