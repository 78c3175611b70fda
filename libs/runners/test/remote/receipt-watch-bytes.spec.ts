/**
 * The watcher (assets/genswarms-receipt-watch) asked with `b <turn>`, as a real node process on a real directory, its
 * stdout parsed by the host's own frame reader: a regular receipt arrives as frames before `r`, byte for byte; a link,
 * FIFO, oversize file or linked turn directory is never read — only `r` is said, and the host reads the receipt itself
 * (and refuses it there). A FIFO never blocks it.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DONE_MAX_BYTES, REPLY_MAX_BYTES } from '@genswarms/receipts';
import { waitFor } from '@genswarms/test-kit';
import { RECEIPT_WATCH_SCRIPT_PATH } from '../../src/lib/remote/receipt-watch';
import { FrameReader } from '../../src/lib/remote/receipt-frames';
import { PUSH_HELLO } from '../../src/lib/remote/receipt-push';

type Event = { line: string } | { frame: string; turn: string; data: Buffer } | { fail: string };

function startWatcher(ws: string): {
  child: ChildProcessWithoutNullStreams;
  events: Event[];
  seen: (n: (e: Event) => boolean) => Promise<void>;
} {
  const child = spawn(process.execPath, [RECEIPT_WATCH_SCRIPT_PATH, ws], { stdio: ['pipe', 'pipe', 'pipe'], shell: false });
  const events: Event[] = [];
  const reader = new FrameReader({
    line: (line) => void events.push({ line }),
    accepts: () => true,
    frame: (turn, name, data) => void events.push({ frame: name, turn, data }),
    fail: (detail) => void events.push({ fail: detail }),
  });
  child.stdout.on('data', (b: Buffer) => reader.push(b));
  const seen = async (match: (e: Event) => boolean): Promise<void> => {
    await waitFor(
      () => events.some(match) || undefined,
      () => `an event, seen: ${JSON.stringify(events)}`,
      { timeoutMs: 10_000 },
    );
  };
  return { child, events, seen };
}

describe('genswarms-receipt-watch with `b` (real node process)', () => {
  let root: string;
  let w: ReturnType<typeof startWatcher>;
  const turnDir = (id: string): string => path.join(root, '.genswarms', 'turns', id);
  const done = (turn: string): string => JSON.stringify({ v: 1, turn, status: 'ok' });
  const isR = (turn: string) => (e: Event) => 'line' in e && e.line === `r ${turn}`;

  beforeEach(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'gs-receipt-bytes-'));
    for (const id of ['turn_a', 'turn_b']) mkdirSync(turnDir(id), { recursive: true, mode: 0o700 });
    w = startWatcher(root);
    await w.seen((e) => 'line' in e && e.line === PUSH_HELLO);
  });
  afterEach(() => {
    w.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('sends reply.md then done.json as frames, then `r`; raw bytes (newlines, `f` lines) survive', async () => {
    w.child.stdin.write('b turn_a\n');
    const reply = Buffer.from('line one\nf turn_a done.json 3\n\0\xff');
    writeFileSync(path.join(turnDir('turn_a'), 'reply.md'), reply);
    writeFileSync(path.join(turnDir('turn_a'), '.tmp'), done('turn_a'));
    renameSync(path.join(turnDir('turn_a'), '.tmp'), path.join(turnDir('turn_a'), 'done.json'));
    await w.seen(isR('turn_a'));
    const frames = w.events.filter((e): e is Extract<Event, { frame: string }> => 'frame' in e);
    expect(frames.map((f) => f.frame)).toEqual(['reply.md', 'done.json']);
    expect(frames[0]?.data.equals(reply)).toBe(true);
    expect(frames[1]?.data.toString()).toBe(done('turn_a'));
    expect(w.events.filter((e) => 'fail' in e)).toEqual([]);
  });

  it('sends done.json alone when there is no reply.md; `w` still sends no bytes', async () => {
    writeFileSync(path.join(turnDir('turn_a'), 'done.json'), done('turn_a'));
    writeFileSync(path.join(turnDir('turn_b'), 'done.json'), done('turn_b'));
    w.child.stdin.write('b turn_a\nw turn_b\n');
    await w.seen(isR('turn_a'));
    await w.seen(isR('turn_b'));
    expect(w.events.filter((e) => 'frame' in e).map((e) => ('frame' in e ? `${e.turn}/${e.frame}` : ''))).toEqual(['turn_a/done.json']);
  });

  const plant: [string, (dir: string) => void][] = [
    ['done.json a link to a readable file', (d) => symlinkSync('/etc/hostname', path.join(d, 'done.json'))],
    ['done.json a FIFO', (d) => void spawnSync('mkfifo', [path.join(d, 'done.json')])],
    ['done.json a directory', (d) => mkdirSync(path.join(d, 'done.json'))],
    ['done.json over its bound', (d) => writeFileSync(path.join(d, 'done.json'), Buffer.alloc(DONE_MAX_BYTES + 1, 0x20))],
    [
      'reply.md a link',
      (d) => {
        symlinkSync('/etc/hostname', path.join(d, 'reply.md'));
        writeFileSync(path.join(d, 'done.json'), '{}');
      },
    ],
    [
      'reply.md a FIFO',
      (d) => {
        spawnSync('mkfifo', [path.join(d, 'reply.md')]);
        writeFileSync(path.join(d, 'done.json'), '{}');
      },
    ],
    [
      'reply.md over its bound',
      (d) => {
        writeFileSync(path.join(d, 'reply.md'), Buffer.alloc(REPLY_MAX_BYTES + 1, 0x61));
        writeFileSync(path.join(d, 'done.json'), '{}');
      },
    ],
  ];
  test.each(plant)('%s: only `r`, no byte sent (the host reads and refuses it), and it still answers', async (_name, make) => {
    make(turnDir('turn_a'));
    w.child.stdin.write('b turn_a\n');
    await w.seen(isR('turn_a'));
    expect(w.events.filter((e) => 'frame' in e)).toEqual([]);
    writeFileSync(path.join(turnDir('turn_b'), 'done.json'), done('turn_b'));
    w.child.stdin.write('b turn_b\n');
    await w.seen(isR('turn_b'));
    expect(w.events.filter((e) => 'frame' in e).length).toBe(1);
  });

  it('a linked turn directory: only `r`', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'gs-receipt-elsewhere-'));
    try {
      writeFileSync(path.join(elsewhere, 'done.json'), done('turn_l'));
      symlinkSync(elsewhere, turnDir('turn_l'));
      w.child.stdin.write('b turn_l\n');
      await w.seen(isR('turn_l'));
      expect(w.events.filter((e) => 'frame' in e)).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
