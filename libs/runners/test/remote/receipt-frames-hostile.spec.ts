/**
 * The host's end of the receipt watcher's byte push (`b <turn>`: frames `f <turn> <name> <length>` + bytes, then
 * `r <turn>`) against hostile watcher output. Every breach ends in one defined outcome: the watcher is dropped (the
 * caller is told once, `receipt_push_lost`, and reads the receipt through its transport), no frame bytes are handed
 * on, and nothing is buffered beyond one file's receipt bound. A fake channel stands in for the exec stream (the real
 * one: swarm-receipt-push.spec.ts).
 */
import { DONE_MAX_BYTES, REPLY_MAX_BYTES } from '@genswarms/receipts';
import { PUSH_FRAME_TIMEOUT_MS } from '../../src/lib/remote/receipt-frames';
import { PUSH_BOGUS_LINES_MAX, PUSH_HELLO, PUSH_WAKES_PER_TURN_MAX, ReceiptPush, type PushWake } from '../../src/lib/remote/receipt-push';

const TURN = 'turn_a1';
const DONE = JSON.stringify({ v: 1, turn: TURN, status: 'ok' });

function frame(name: string, data: string | Buffer, turn = TURN): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from(`f ${turn} ${name} ${bytes.length}\n`), bytes]);
}

function receiptBytes(reply: string | null = 'the reply\nf turn_a1 done.json 3\nr turn_a1\n'): Buffer {
  return Buffer.concat([...(reply === null ? [] : [frame('reply.md', reply)]), frame('done.json', DONE), Buffer.from(`r ${TURN}\n`)]);
}

function setup(bytes = true): { push: ReceiptPush; lost: string[]; writes: string[]; closed: () => number } {
  const lost: string[] = [];
  const writes: string[] = [];
  let closes = 0;
  const push = new ReceiptPush((d) => lost.push(d), bytes);
  push.watch(TURN);
  push.attach({ write: (l) => writes.push(l), close: () => void (closes += 1) });
  push.feed(Buffer.from(`${PUSH_HELLO}\n`));
  return { push, lost, writes, closed: () => closes };
}

function waitOnce(push: ReceiptPush, turn = TURN): Promise<PushWake> {
  return push.wait(turn, 30, new AbortController().signal);
}

describe('receipt push with bytes: well-formed frames', () => {
  it('asks with `b`, and hands on the receipt sent before `r` (frame bytes are raw: newlines and `f`/`r` inside)', async () => {
    const { push, writes, lost } = setup();
    expect(writes).toEqual([`b ${TURN}\n`]);
    const w = waitOnce(push);
    push.feed(receiptBytes());
    expect(await w).toBe('receipt');
    const r = push.takeReceipt(TURN);
    expect(r?.done.toString()).toBe(DONE);
    expect(r?.reply?.toString()).toBe('the reply\nf turn_a1 done.json 3\nr turn_a1\n');
    expect(push.takeReceipt(TURN)).toBeUndefined(); // taken once
    expect(lost).toEqual([]);
  });

  it('takes the frames one byte at a time, and a receipt without reply.md', async () => {
    const { push } = setup();
    for (const b of receiptBytes(null)) push.feed(Buffer.from([b]));
    expect(await waitOnce(push)).toBe('receipt');
    expect(push.takeReceipt(TURN)).toEqual({ done: Buffer.from(DONE), reply: null });
  });

  it('takes frames of exactly the receipt bounds', async () => {
    const { push, lost } = setup();
    push.feed(frame('reply.md', Buffer.alloc(REPLY_MAX_BYTES, 0x61)));
    push.feed(frame('done.json', Buffer.alloc(DONE_MAX_BYTES, 0x20)));
    push.feed(Buffer.from(`r ${TURN}\n`));
    expect(lost).toEqual([]);
    expect(push.takeReceipt(TURN)?.done.length).toBe(DONE_MAX_BYTES);
  });

  it('ignores garbage lines between frames (bogus lines, counted as before): the receipt is what the frames held', async () => {
    const { push, lost } = setup();
    push.feed(Buffer.concat([frame('reply.md', 'R'), Buffer.from('garbage\nr turn_other\n'), frame('done.json', DONE)]));
    push.feed(Buffer.from(`o\nr ${TURN}\n`));
    expect(push.takeReceipt(TURN)).toEqual({ done: Buffer.from(DONE), reply: Buffer.from('R') });
    expect(lost).toEqual([]);
  });

  it('a short length hands on exactly that many bytes; the rest is a bogus line, never part of the receipt', () => {
    const { push, lost } = setup();
    push.feed(Buffer.from(`f ${TURN} done.json 3\n${DONE}\nr ${TURN}\n`));
    expect(push.takeReceipt(TURN)).toEqual({ done: Buffer.from(DONE.slice(0, 3)), reply: null }); // the parser refuses it
    expect(lost).toEqual([]);
  });

  it('keeps only the latest receipt of a turn until it is taken', () => {
    const { push } = setup();
    push.feed(receiptBytes('one'));
    push.feed(receiptBytes('two'));
    expect(push.takeReceipt(TURN)?.reply?.toString()).toBe('two');
  });

  it('asks with `w` and drops any frame when bytes were not asked for (ssh)', async () => {
    const { push, writes, lost } = setup(false);
    expect(writes).toEqual([`w ${TURN}\n`]);
    push.feed(receiptBytes());
    expect(lost).toEqual(['the watcher was dropped: a frame the host did not ask for']);
    expect(push.takeReceipt(TURN)).toBeUndefined();
  });
});

describe('receipt push with bytes: hostile frames drop the watcher (the transport read takes over)', () => {
  const malformed = 'the watcher was dropped: a malformed frame header';
  const over = 'the watcher was dropped: a frame over the receipt bound';
  const notAsked = 'the watcher was dropped: a frame the host did not ask for';
  test.each([
    ['an oversize done.json length', `f ${TURN} done.json ${DONE_MAX_BYTES + 1}\n`, over],
    ['an oversize reply.md length', `f ${TURN} reply.md ${REPLY_MAX_BYTES + 1}\n`, over],
    ['a nine-digit length', `f ${TURN} done.json 999999999\n`, over],
    ['a ten-digit length', `f ${TURN} done.json 9999999999\n`, malformed],
    ['a negative length', `f ${TURN} done.json -1\n`, malformed],
    ['NaN', `f ${TURN} done.json NaN\n`, malformed],
    ['an exponent', `f ${TURN} done.json 1e3\n`, malformed],
    ['hex', `f ${TURN} done.json 0x10\n`, malformed],
    ['a leading zero', `f ${TURN} done.json 012\n`, malformed],
    ['a plus sign', `f ${TURN} done.json +12\n`, malformed],
    ['no length', `f ${TURN} done.json\n`, malformed],
    ['a turn never asked about', 'f turn_zz9 done.json 2\n{}', notAsked],
    ['a turn with `..`', 'f ../../etc done.json 2\n{}', malformed],
    ['a name with `..`', `f ${TURN} ../done.json 2\n{}`, malformed],
    ['an absolute path', `f ${TURN} /etc/passwd 2\n{}`, malformed],
    ['a name with a slash', `f ${TURN} x/done.json 2\n{}`, malformed],
    ['another file name', `f ${TURN} env 2\n{}`, malformed],
    ['a NUL in the turn', `f ${TURN}\0 done.json 2\n{}`, malformed],
    ['a NUL in the name', `f ${TURN} done.json\0 2\n{}`, malformed],
    ['a CR', `f ${TURN} done.json 2\r\n{}`, malformed],
    ['a FIFO claim (type word)', `f ${TURN} fifo done.json 2\n{}`, malformed],
    ['a FIFO claim (trailing)', `f ${TURN} done.json 2 fifo\n{}`, malformed],
    ['a FIFO claim (in the length)', `f ${TURN} done.json p2\n{}`, malformed],
    ['upper case', `f ${TURN.toUpperCase()} done.json 2\n{}`, malformed],
    ['a second done.json before `r`', `${frame('done.json', DONE).toString()}${frame('done.json', DONE).toString()}`, notAsked],
    ['reply.md after done.json', `${frame('done.json', DONE).toString()}${frame('reply.md', 'x').toString()}`, notAsked],
    ['`r` after reply.md alone', `${frame('reply.md', 'x').toString()}r ${TURN}\n`, 'the watcher was dropped: a receipt without done.json'],
  ])('%s', async (_name, bytes, detail) => {
    const { push, lost, closed } = setup();
    const w = waitOnce(push);
    push.feed(Buffer.from(bytes, 'latin1'));
    expect(await w).toBe('lost');
    expect(lost).toEqual([detail]);
    expect(closed()).toBe(1);
    expect(push.live).toBe(false);
    push.feed(receiptBytes()); // nothing after the drop
    expect(push.takeReceipt(TURN)).toBeUndefined();
    expect(await waitOnce(push)).toBe('timeout');
  });

  it('a frame before the hello', () => {
    const lost: string[] = [];
    const push = new ReceiptPush((d) => lost.push(d), true);
    push.watch(TURN);
    push.attach({ write: () => undefined, close: () => undefined });
    push.feed(receiptBytes());
    expect(lost).toEqual([notAsked]);
    expect(push.takeReceipt(TURN)).toBeUndefined();
  });

  it('a frame for a turn the host stopped watching', () => {
    const { push, lost } = setup();
    push.unwatch(TURN);
    push.feed(receiptBytes());
    expect(lost).toEqual([notAsked]);
  });

  it('a truncated frame, then the stream ends: told once, no bytes handed on', async () => {
    const { push, lost } = setup();
    push.feed(Buffer.from(`f ${TURN} done.json 100\n{"v":1`));
    const w = waitOnce(push);
    push.end('the receipt watcher exited');
    expect(await w).toBe('lost');
    expect(lost).toEqual(['the receipt watcher exited']);
    expect(push.takeReceipt(TURN)).toBeUndefined();
  });

  it('a truncated frame that stalls is dropped after the frame time limit', async () => {
    const { push, lost, closed } = setup();
    push.feed(Buffer.from(`f ${TURN} done.json 100\n{"v":1`));
    await new Promise((r) => setTimeout(r, PUSH_FRAME_TIMEOUT_MS + 200));
    expect(lost).toEqual(['the watcher was dropped: a frame that did not arrive in time']);
    expect(closed()).toBe(1);
    expect(push.takeReceipt(TURN)).toBeUndefined();
  }, 10_000);

  it('a flood of whole receipts for the watched turn: dropped past the per-turn count', () => {
    const { push, lost } = setup();
    for (let i = 0; i < PUSH_WAKES_PER_TURN_MAX; i += 1) push.feed(receiptBytes(`n${i}`));
    expect(lost).toEqual([]);
    push.feed(receiptBytes('one more'));
    expect(lost).toEqual(['the watcher was dropped: too many receipts for one turn']);
    expect(push.takeReceipt(TURN)?.reply?.toString()).toBe(`n${PUSH_WAKES_PER_TURN_MAX - 1}`); // never the flood's last
  });

  it('a flood of garbage lines around frames: dropped at the bogus-line cap, as for wake-ups', () => {
    const { push, lost } = setup();
    push.feed(Buffer.concat([frame('reply.md', 'R'), Buffer.from('junk\n'.repeat(PUSH_BOGUS_LINES_MAX + 1))]));
    expect(lost).toEqual(['the watcher was dropped: too many lines naming no watched turn']);
    expect(push.takeReceipt(TURN)).toBeUndefined();
  });

  it('a header line over the line bound', () => {
    const { push, lost } = setup();
    push.feed(Buffer.from(`f ${TURN} done.json ${'1'.repeat(200)}\n`));
    expect(lost).toEqual(['the watcher was dropped: a line over the length bound']);
  });
});
