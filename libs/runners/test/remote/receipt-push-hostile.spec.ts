/**
 * The host's end of the remote receipt watcher against hostile watcher output: every line is a wake-up hint at most,
 * and nothing a watcher prints names another turn, a path, or grows without bound. A fake channel stands in for the
 * ssh channel / exec stream (the real ones: ssh-receipt-push.spec.ts, swarm-two-node.spec.ts).
 */
import {
  PUSH_BOGUS_LINES_MAX,
  PUSH_HELLO,
  PUSH_LINE_MAX_BYTES,
  PUSH_WAKES_PER_TURN_MAX,
  ReceiptPush,
  type PushWake,
} from '../../src/lib/remote/receipt-push';

const TURN = 'turn_a1';

function setup(): { push: ReceiptPush; lost: string[]; writes: string[]; closed: () => number } {
  const lost: string[] = [];
  const writes: string[] = [];
  let closes = 0;
  const push = new ReceiptPush((d) => lost.push(d));
  push.watch(TURN);
  push.attach({ write: (l) => writes.push(l), close: () => void (closes += 1) });
  push.feed(Buffer.from(`${PUSH_HELLO}\n`));
  return { push, lost, writes, closed: () => closes };
}

/** What one wait resolves with, the wait bounded at 30 ms (a wake that never comes is `timeout`). */
function waitOnce(push: ReceiptPush, turn = TURN): Promise<PushWake> {
  return push.wait(turn, 30, new AbortController().signal);
}

describe('receipt push: the watcher only wakes the host', () => {
  it('asks the watcher about watched turns, again after a restart', () => {
    const { push, writes } = setup();
    expect(writes).toEqual([`w ${TURN}\n`]);
    push.watch('turn_b2');
    expect(writes).toEqual([`w ${TURN}\n`, 'w turn_b2\n']);
    push.end('exited');
    const again: string[] = [];
    push.attach({ write: (l) => again.push(l), close: () => undefined });
    expect(again).toEqual([`w ${TURN}\n`, 'w turn_b2\n']);
  });

  it('wakes the waiter of the named turn, also when the line arrives in pieces', async () => {
    const { push } = setup();
    const w = waitOnce(push);
    push.feed(Buffer.from('r tu'));
    push.feed(Buffer.from(`rn_a1\n`));
    expect(await w).toBe('receipt');
    expect(push.live).toBe(true);
  });

  it('keeps a push that arrived between two waits for the next wait', async () => {
    const { push } = setup();
    push.feed(Buffer.from(`r ${TURN}\n`));
    expect(await waitOnce(push)).toBe('receipt');
    expect(await waitOnce(push)).toBe('timeout');
  });

  it('wakes on outbox activity', async () => {
    const { push } = setup();
    const w = waitOnce(push);
    push.feed(Buffer.from('o\n'));
    expect(await w).toBe('outbox');
  });

  test.each([
    ['a path outside the receipt dir', 'r ../../../etc/passwd'],
    ['an absolute path', 'r /etc/passwd'],
    ['a turn with a slash', `r ${TURN}/../x`],
    ['a turn never asked about', 'r turn_zz9'],
    ['__proto__', 'r __proto__'],
    ['a NUL', `r ${TURN}\0`],
    ['a CR', `r ${TURN}\r`],
    ['upper case', `r ${TURN.toUpperCase()}`],
    ['another verb', `w ${TURN}`],
    ['a second hello', PUSH_HELLO],
    ['an empty line', ''],
  ])('ignores a line naming %s', async (_name, line) => {
    const { push, lost } = setup();
    push.feed(Buffer.from(`${line}\n`));
    expect(await waitOnce(push)).toBe('timeout');
    expect(lost).toEqual([]);
    expect(push.live).toBe(true);
  });

  it('does not take a push before the hello', async () => {
    const push = new ReceiptPush(() => undefined);
    push.watch(TURN);
    push.attach({ write: () => undefined, close: () => undefined });
    push.feed(Buffer.from(`r ${TURN}\n`));
    expect(push.live).toBe(false);
    expect(await waitOnce(push)).toBe('timeout');
  });

  test.each([
    ['one line over the bound', `r ${'a'.repeat(PUSH_LINE_MAX_BYTES)}\n`],
    ['a partial line over the bound (no newline)', 'x'.repeat(PUSH_LINE_MAX_BYTES + 1)],
    ['a megabyte without a newline', 'y'.repeat(1_048_576)],
  ])('drops the watcher on %s: the caller is told and falls back to the poll', async (_name, bytes) => {
    const { push, lost, closed } = setup();
    const w = waitOnce(push);
    push.feed(Buffer.from(bytes));
    expect(await w).toBe('lost');
    expect(lost).toEqual(['the watcher was dropped: a line over the length bound']);
    expect(closed()).toBe(1);
    expect(push.live).toBe(false);
    push.feed(Buffer.from(`r ${TURN}\n`)); // nothing after the drop
    expect(await waitOnce(push)).toBe('timeout');
  });

  it('drops a watcher that floods lines naming no watched turn', async () => {
    const { push, lost, closed } = setup();
    push.feed(Buffer.from('r turn_other\n'.repeat(PUSH_BOGUS_LINES_MAX)));
    expect(push.live).toBe(true);
    push.feed(Buffer.from('r turn_other\n'));
    expect(push.live).toBe(false);
    expect(lost).toEqual(['the watcher was dropped: too many lines naming no watched turn']);
    expect(closed()).toBe(1);
  });

  it('ignores pushes for a turn that woke the host too often for nothing (the poll still runs)', async () => {
    const { push, lost } = setup();
    for (let i = 0; i < PUSH_WAKES_PER_TURN_MAX; i += 1) {
      push.feed(Buffer.from(`r ${TURN}\n`));
      expect(await waitOnce(push)).toBe('receipt');
      push.missed(TURN);
    }
    push.feed(Buffer.from(`r ${TURN}\n`.repeat(1000)));
    expect(await waitOnce(push)).toBe('timeout');
    expect(lost).toEqual([]);
  });

  it('coalesces a flood of pushes for the watched turn into one wake', async () => {
    const { push } = setup();
    push.feed(Buffer.from(`r ${TURN}\n`.repeat(5000)));
    expect(await waitOnce(push)).toBe('receipt');
    expect(await waitOnce(push)).toBe('timeout');
  });

  it('tells the caller once when the watcher ends, never after a deliberate close', async () => {
    const { push, lost } = setup();
    const w = waitOnce(push);
    push.end('the receipt watcher exited (status 137)');
    push.end('again');
    expect(await w).toBe('lost');
    expect(lost).toEqual(['the receipt watcher exited (status 137)']);
    const quiet = setup();
    quiet.push.close();
    quiet.push.end('exited after close');
    expect(quiet.lost).toEqual([]);
  });

  it('forgets an unwatched turn: its pushes are bogus', async () => {
    const { push } = setup();
    push.unwatch(TURN);
    push.feed(Buffer.from(`r ${TURN}\n`));
    expect(await waitOnce(push)).toBe('timeout');
  });
});
