/**
 * Fuzz target `agent-inbox` (docs/reliability.md "Fuzzing"): the `.inbox` the built-in agent reads — items
 * (the documented shape mutated key by key, raw bytes) under well-formed and hostile names, as links,
 * FIFOs, directories or over-size files, and `.inbox` itself replaced by a file or a link — through the
 * agent's reader (`listInbox`, `readInboxItem`). Criteria: no throw, no hang (a FIFO must not block), and
 * an item read as ok has a sender, a seq and a turn id that agree with the grammar and its file name.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { hostileValue, mutatedConfig, replayFuzzRegressions, runFuzzTarget } from '@genswarms/tools';
import type { FuzzTarget } from '@genswarms/tools';
import { OPERATOR_SENDER, TURN_ID_RE, isName } from '../config/names';
import { INBOX_FILE_MAX_BYTES, listInbox, readInboxItem } from './inbox-reader';
import { spawnSync } from 'node:child_process';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'gs-fuzz-inbox-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Planted =
  { kind: 'file'; bytes: string | Uint8Array } | { kind: 'big' } | { kind: 'symlink'; to: string } | { kind: 'fifo' } | { kind: 'dir' };

interface InboxInput {
  readonly inbox: 'dir' | 'file' | 'symlink';
  readonly entries: ReadonlyArray<{ readonly name: string; readonly file: Planted }>;
}

const GOOD = [
  { from: '_operator', content: 'do it', seq: 1, timestamp: '2026-01-01T00:00:00.000Z', turn: 't-1' },
  { from: 'planner', content: 'x', seq: '0002', timestamp: 'now', turn: 'abc_1' },
];

const content: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: mutatedConfig(GOOD).map((v) => JSON.stringify(v) ?? '') },
  { weight: 2, arbitrary: fc.constantFrom(...GOOD).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? '') },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);

const name: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 99_999 }), fc.constantFrom('_operator', 'planner', 'a-b', 'x'))
      .map(([n, f]) => `${String(n).padStart(4, '0')}_${f}.json`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0001_.json',
      '1_x.json',
      '0001__proto__.json',
      `0001_${'a'.repeat(66)}.json`,
      '.0001_x.json',
      '999999999999999_x.json',
      '0001_x.json.tmp',
      '0001_a%2f.json',
    ),
  },
);

const planted: fc.Arbitrary<Planted> = fc.oneof(
  { weight: 30, arbitrary: content.map((bytes) => ({ kind: 'file' as const, bytes })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'big' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('/etc/passwd', '/dev/zero', 'missing').map((to) => ({ kind: 'symlink' as const, to })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fifo' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'dir' as const }) },
);

function plant(path: string, f: Planted): void {
  if (f.kind === 'file') writeFileSync(path, typeof f.bytes === 'string' ? f.bytes : Buffer.from(f.bytes));
  else if (f.kind === 'big') writeFileSync(path, Buffer.alloc(INBOX_FILE_MAX_BYTES + 1, 0x20));
  else if (f.kind === 'symlink') symlinkSync(f.to, path);
  else if (f.kind === 'dir') mkdirSync(path);
  else if (spawnSync('/usr/bin/mkfifo', [path], { shell: false, stdio: 'ignore' }).status !== 0) throw new Error('mkfifo failed');
}

const target: FuzzTarget<InboxInput> = {
  name: 'agent-inbox',
  arbitrary: fc.record({
    inbox: fc.oneof(
      { weight: 10, arbitrary: fc.constant('dir' as const) },
      { weight: 1, arbitrary: fc.constantFrom('file' as const, 'symlink' as const) },
    ),
    entries: fc.uniqueArray(fc.record({ name, file: planted }), { maxLength: 4, selector: (e) => e.name }),
  }),
  async check({ inbox, entries }) {
    const dir = join(root, '.inbox');
    rmSync(dir, { recursive: true, force: true });
    if (inbox === 'file') writeFileSync(dir, '{}');
    else if (inbox === 'symlink') symlinkSync('/etc', dir);
    else {
      mkdirSync(dir);
      for (const e of entries) plant(join(dir, e.name), e.file);
    }
    const listing = await listInbox(dir);
    if (listing.kind !== 'ok') return;
    for (const entry of listing.entries) {
      const read = await readInboxItem(dir, entry);
      if (read.kind !== 'ok') continue;
      const { item } = read;
      if (!TURN_ID_RE.test(item.turn)) throw new Error(`read an item with turn ${JSON.stringify(item.turn)}`);
      if (item.from !== OPERATOR_SENDER && !isName(item.from)) throw new Error(`read an item from ${JSON.stringify(item.from)}`);
      if (item.seq !== entry.seq || item.from !== entry.from) throw new Error('read an item whose seq/from disagree with its name');
    }
  },
};

describe('fuzz: agent-inbox (listInbox + readInboxItem on a hostile .inbox)', () => {
  it('reads a well-formed item (the fuzz inputs reach the reader)', async () => {
    await target.check({
      inbox: 'dir',
      entries: [{ name: '0001__operator.json', file: { kind: 'file', bytes: JSON.stringify(GOOD[0]) } }],
    });
    const listing = await listInbox(join(root, '.inbox'));
    expect(listing).toEqual({ kind: 'ok', entries: [{ file: '0001__operator.json', seq: 1, from: '_operator' }] });
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated inboxes: no throw, no hang, every item read agrees with the grammar', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
