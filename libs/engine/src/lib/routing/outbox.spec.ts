import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classifyOutboxMessage, drainOutbox } from './outbox';

describe('classifyOutboxMessage', () => {
  test.each([
    ['ask', { to: 'recorder', content: 'q', reply_to: 'c1' }, 'ask'],
    ['ask with a numeric id', { to: 'recorder', content: 'q', reply_to: 7 }, 'ask'],
    ['direct', { to: 'web-bot', content: 'hi' }, 'direct'],
    ['direct with reply_to null', { to: 'b', content: 'hi', reply_to: null }, 'direct'],
    ['broadcast', { broadcast: true, content: 'all' }, 'broadcast'],
  ])('%s', (_n, value, kind) => {
    expect(classifyOutboxMessage('f.json', value)?.kind).toBe(kind);
  });

  test.each([
    ['broadcast false', { broadcast: false, content: 'x' }],
    ['missing content', { to: 'b' }],
    ['non-string content', { to: 'b', content: 5 }],
    ['bad target name', { to: '../etc', content: 'x' }],
    ['extra key', { to: 'b', content: 'x', cc: 'c' }],
    ['__proto__ key', JSON.parse('{"to":"b","content":"x","__proto__":{"a":1}}') as unknown],
    ['array', ['b', 'x']],
    ['null', null],
    ['to and broadcast', { to: 'b', broadcast: true, content: 'x' }],
  ])('rejects %s', (_n, value) => {
    expect(classifyOutboxMessage('f.json', value)).toBeNull();
  });
});

describe('drainOutbox', () => {
  let ws: string;
  let outbox: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-outbox-')));
    outbox = path.join(ws, '.outbox');
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('reads only *.json in lexical order and deletes every processed file', async () => {
    fs.mkdirSync(outbox);
    fs.writeFileSync(path.join(outbox, 'b.json'), JSON.stringify({ to: 'x', content: 'second' }));
    fs.writeFileSync(path.join(outbox, 'a.json'), JSON.stringify({ broadcast: true, content: 'first' }));
    fs.writeFileSync(path.join(outbox, 'c.json'), '{not json');
    fs.writeFileSync(path.join(outbox, 'note.txt'), 'ignored');
    const r = await drainOutbox(ws);
    expect(r).toEqual({
      kind: 'drained',
      aborted: false,
      messages: [
        { kind: 'broadcast', file: 'a.json', content: 'first' },
        { kind: 'direct', file: 'b.json', to: 'x', content: 'second' },
      ],
      rejected: [{ file: 'c.json', reason: 'invalid_shape' }],
    });
    expect(fs.readdirSync(outbox)).toEqual(['note.txt']);
  });

  it('refuses a symlinked .outbox without reading or deleting anything', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-elsewhere-'));
    fs.writeFileSync(path.join(elsewhere, 'x.json'), JSON.stringify({ to: 'x', content: 'c' }));
    fs.symlinkSync(elsewhere, outbox);
    expect(await drainOutbox(ws)).toEqual({ kind: 'dir_rejected', reason: 'symlink' });
    expect(fs.readdirSync(elsewhere)).toEqual(['x.json']);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('refuses an .outbox that is a regular file', async () => {
    fs.writeFileSync(outbox, 'x');
    expect(await drainOutbox(ws)).toEqual({ kind: 'dir_rejected', reason: 'not_a_directory' });
  });

  it('rejects a symlinked file, deletes the link and never the target', async () => {
    fs.mkdirSync(outbox);
    const target = path.join(ws, 'secret.json');
    fs.writeFileSync(target, JSON.stringify({ to: 'x', content: 'secret' }));
    fs.symlinkSync(target, path.join(outbox, 'evil.json'));
    const r = await drainOutbox(ws);
    expect(r).toMatchObject({ kind: 'drained', messages: [], rejected: [{ file: 'evil.json', reason: 'receipt_symlink' }] });
    expect(fs.existsSync(target)).toBe(true);
    expect(fs.readdirSync(outbox)).toEqual([]);
  });

  it('rejects an oversize file', async () => {
    fs.mkdirSync(outbox);
    fs.writeFileSync(path.join(outbox, 'big.json'), JSON.stringify({ to: 'x', content: 'y'.repeat(1_048_600) }));
    expect(await drainOutbox(ws)).toMatchObject({ rejected: [{ file: 'big.json', reason: 'receipt_too_large' }] });
  });

  it('treats a missing outbox as empty', async () => {
    expect(await drainOutbox(ws)).toEqual({ kind: 'empty' });
  });
});
