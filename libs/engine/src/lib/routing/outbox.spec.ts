import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { classifyOutboxMessage, drainOutbox, newOutboxMemo, type OutboxEntry, type OutboxMemo, type OutboxMessage } from './outbox';

type Collected = {
  kind: string;
  reason?: string;
  processed?: number;
  aborted?: boolean;
  messages: OutboxMessage[];
  rejected: { file: string; reason: string }[];
};

/** One drain, collecting what it handed over (in order). */
async function drain(ws: string, memo?: OutboxMemo): Promise<Collected> {
  const entries: OutboxEntry[] = [];
  const r = await drainOutbox(
    ws,
    (e) => {
      entries.push(e);
      return Promise.resolve();
    },
    memo,
  );
  return {
    ...r,
    messages: entries.flatMap((e) => (e.kind === 'message' ? [e.message] : [])),
    rejected: entries.flatMap((e) => (e.kind === 'rejected' ? [{ file: e.file, reason: e.reason }] : [])),
  };
}

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
    const r = await drain(ws);
    expect(r).toEqual({
      kind: 'drained',
      aborted: false,
      processed: 3,
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
    expect(await drain(ws)).toMatchObject({ kind: 'dir_rejected', reason: 'symlink', messages: [], rejected: [] });
    expect(fs.readdirSync(elsewhere)).toEqual(['x.json']);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('refuses an .outbox that is a regular file', async () => {
    fs.writeFileSync(outbox, 'x');
    expect(await drain(ws)).toMatchObject({ kind: 'dir_rejected', reason: 'not_a_directory' });
  });

  it('rejects a symlinked file, deletes the link and never the target', async () => {
    fs.mkdirSync(outbox);
    const target = path.join(ws, 'secret.json');
    fs.writeFileSync(target, JSON.stringify({ to: 'x', content: 'secret' }));
    fs.symlinkSync(target, path.join(outbox, 'evil.json'));
    const r = await drain(ws);
    expect(r).toMatchObject({ kind: 'drained', messages: [], rejected: [{ file: 'evil.json', reason: 'receipt_symlink' }] });
    expect(fs.existsSync(target)).toBe(true);
    expect(fs.readdirSync(outbox)).toEqual([]);
  });

  it('rejects an oversize file', async () => {
    fs.mkdirSync(outbox);
    fs.writeFileSync(path.join(outbox, 'big.json'), JSON.stringify({ to: 'x', content: 'y'.repeat(1_048_600) }));
    expect(await drain(ws)).toMatchObject({ rejected: [{ file: 'big.json', reason: 'receipt_too_large' }] });
  });

  it('treats a missing outbox as empty', async () => {
    expect(await drain(ws)).toMatchObject({ kind: 'empty', messages: [], rejected: [] });
  });

  describe('hostile entries', () => {
    const victims: string[] = [];
    const elsewhere = (): string => {
      const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-victim-')));
      victims.push(d);
      return d;
    };
    afterEach(() => {
      for (const d of victims.splice(0)) {
        for (const f of fs.readdirSync(d)) expect(fs.readFileSync(path.join(d, f), 'utf8')).toContain('secret');
        fs.rmSync(d, { recursive: true, force: true });
      }
    });

    test.each([
      ['a FIFO', (p: string): void => void spawnSync('/usr/bin/mkfifo', [p], { shell: false }), 'receipt_not_regular'],
      ['an empty directory', (p: string): void => fs.mkdirSync(p), 'receipt_not_regular'],
      [
        'invalid UTF-8 content',
        (p: string): void => fs.writeFileSync(p, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
        'invalid_shape',
      ],
      [
        'a hard link to a file elsewhere',
        (p: string): void => {
          const victim = path.join(elsewhere(), 'v.json');
          fs.writeFileSync(victim, JSON.stringify({ to: 'x', content: 'secret' }));
          fs.linkSync(victim, p);
        },
        'receipt_not_regular',
      ],
      [
        'JSON with constructor',
        (p: string): void => fs.writeFileSync(p, '{"to":"b","content":"x","constructor":{"prototype":{"a":1}}}'),
        'invalid_shape',
      ],
      ['a target naming ..', (p: string): void => fs.writeFileSync(p, '{"to":"..","content":"x"}'), 'invalid_shape'],
    ])('%s is rejected and removed', async (_n, make, reason) => {
      fs.mkdirSync(outbox);
      make(path.join(outbox, 'e.json'));
      expect(await drain(ws)).toMatchObject({ kind: 'drained', messages: [], rejected: [{ file: 'e.json', reason }] });
      expect(fs.readdirSync(outbox)).toEqual([]);
    });

    it('a name that is not valid UTF-8 is rejected and removed, not skipped on every poll', async () => {
      fs.mkdirSync(outbox);
      const raw = Buffer.concat([Buffer.from(`${outbox}/`), Buffer.from([0xff, 0xfe]), Buffer.from('.json')]);
      fs.writeFileSync(raw, JSON.stringify({ to: 'b', content: 'x' }));
      expect(await drain(ws)).toMatchObject({ kind: 'drained', messages: [], rejected: [{ reason: 'invalid_name' }] });
      expect(fs.readdirSync(outbox)).toEqual([]);
    });

    it('a non-empty directory that cannot be removed is reported once, not on every poll', async () => {
      fs.mkdirSync(path.join(outbox, 'd.json'), { recursive: true });
      fs.writeFileSync(path.join(outbox, 'd.json', 'keep'), 'x');
      const memo = newOutboxMemo();
      expect(await drain(ws, memo)).toMatchObject({ rejected: [{ file: 'd.json', reason: 'receipt_not_regular' }] });
      expect(await drain(ws, memo)).toMatchObject({ rejected: [] });
      fs.writeFileSync(path.join(outbox, 'n.json'), JSON.stringify({ broadcast: true, content: 'next' }));
      expect(await drain(ws, memo)).toMatchObject({ messages: [{ file: 'n.json' }], rejected: [] });
      expect(fs.readFileSync(path.join(outbox, 'd.json', 'keep'), 'utf8')).toBe('x');
    });

    it('thousands of files are each routed once, in byte order, and all removed', async () => {
      fs.mkdirSync(outbox);
      const names = Array.from({ length: 3000 }, (_v, i) => `${String(i).padStart(5, '0')}.json`);
      for (const n of names) fs.writeFileSync(path.join(outbox, n), JSON.stringify({ broadcast: true, content: n }));
      fs.writeFileSync(path.join(outbox, 'Z.json'), JSON.stringify({ broadcast: true, content: 'Z' }));
      fs.writeFileSync(path.join(outbox, 'a.json'), JSON.stringify({ broadcast: true, content: 'a' }));
      const r = await drain(ws);
      expect(r.messages.map((m) => m.content)).toEqual([...names, 'Z.json', 'a.json'].map((n) => (n.length === 6 ? n[0] : n)));
      expect(fs.readdirSync(outbox)).toEqual([]);
    });
  });
});
