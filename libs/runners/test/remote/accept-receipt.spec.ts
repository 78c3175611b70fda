/**
 * Receipt bytes the watcher pushed, through the remote-workspace port's `acceptReceipt`, on a real local mirror: the
 * same bounds, the same safe writer and the same parser as bytes read through a transport — a hostile push is refused
 * exactly as the same file read remotely would be, and a good one arrives byte for byte.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DONE_MAX_BYTES, REPLY_MAX_BYTES, newTurnId, prepareTurnDir } from '@genswarms/receipts';
import { acceptReceipt } from '../../src/lib/remote/remote-workspace';

describe('acceptReceipt: pushed receipt bytes under the receipt rules', () => {
  let local: string;
  let turn: string;
  beforeEach(async () => {
    local = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-accept-')));
    turn = newTurnId();
    await prepareTurnDir(local, turn);
  });
  afterEach(() => rmSync(local, { recursive: true, force: true }));

  const done = (over: Record<string, unknown> = {}): Buffer => Buffer.from(JSON.stringify({ v: 1, turn, status: 'ok', ...over }));

  it('mirrors and parses a good receipt: reply byte for byte', async () => {
    const r = await acceptReceipt({ remote: '/workspace', local }, turn, { done: done(), reply: Buffer.from('hello\n') });
    expect(r).toMatchObject({ kind: 'ok', status: 'ok', reply: 'hello\n' });
    expect(readFileSync(path.join(local, '.genswarms', 'turns', turn, 'reply.md'), 'utf8')).toBe('hello\n');
  });

  test.each([
    ['an oversize done.json', () => Buffer.alloc(DONE_MAX_BYTES + 1, 0x20), null, { reason: 'receipt_too_large', file: 'done.json' }],
    ['an oversize reply.md', () => null, Buffer.alloc(REPLY_MAX_BYTES + 1, 0x61), { reason: 'receipt_too_large', file: 'reply.md' }],
    ['done.json that is not JSON', () => Buffer.from('{"v":1,'), Buffer.from('x'), { reason: 'receipt_malformed' }],
    ['done.json with a NUL', () => Buffer.from('{"v":1\0}'), Buffer.from('x'), { reason: 'receipt_malformed' }],
    [
      'done.json for another turn',
      () => Buffer.from(JSON.stringify({ v: 1, turn: 'turn_other', status: 'ok' })),
      Buffer.from('x'),
      { reason: 'receipt_turn_mismatch' },
    ],
  ])('refuses %s', async (_name, makeDone, reply, expected) => {
    const d = makeDone() ?? done();
    const r = await acceptReceipt({ remote: '/workspace', local }, turn, { done: d, reply });
    expect(r).toMatchObject({ kind: 'refused', ...expected });
  });

  it('refuses to mirror through a local turn directory that became a link', async () => {
    const other = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gs-accept-other-')));
    try {
      const t2 = newTurnId();
      mkdirSync(path.join(local, '.genswarms', 'turns'), { recursive: true });
      symlinkSync(other, path.join(local, '.genswarms', 'turns', t2));
      const r = await acceptReceipt({ remote: '/workspace', local }, t2, { done: done({ turn: t2 }), reply: Buffer.from('x') });
      expect(r).toMatchObject({ kind: 'refused' });
      expect(() => readFileSync(path.join(other, 'done.json'))).toThrow();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('throws on a turn id that is not one (never a path)', async () => {
    await expect(acceptReceipt({ remote: '/workspace', local }, '../x', { done: done(), reply: null })).rejects.toThrow('invalid turn id');
  });
});
