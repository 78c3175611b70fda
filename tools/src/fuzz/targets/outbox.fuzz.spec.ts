/**
 * Fuzz target `outbox` (docs/reliability.md "Fuzzing"): the `.outbox` a hostile agent fills — messages
 * (the three documented shapes mutated key by key, raw bytes), hostile names (not UTF-8, dot files, long,
 * not `.json`), links, FIFOs, directories, over-size files, and `.outbox` itself replaced by a file or a
 * link — drained by the host (`drainOutbox`, libs/engine). Criteria: no throw, no hang, every rejection
 * a reason docs/messaging.md documents, every routed message of a documented shape, and every `*.json`
 * entry that is not a non-empty directory removed (the outbox does not grow).
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { drainOutbox } from '@genswarms/engine';
import type { OutboxEntry } from '@genswarms/engine';
import { NAME_RE } from '@genswarms/ir-gate';
import { REPO_ROOT } from '../../build-once/build-once';
import { mutatedConfig } from '../arbitraries/config-mutations';
import { hostileFile, plantFile } from '../arbitraries/hostile-files';
import type { HostileFile } from '../arbitraries/hostile-files';
import { replayFuzzRegressions, runFuzzTarget } from '../fuzz-run';
import type { FuzzTarget } from '../fuzz-target';
import { readFileSync } from 'node:fs';

const MESSAGING_WORDS = new Set(
  [...readFileSync(join(REPO_ROOT, 'docs', 'messaging.md'), 'utf8').matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1] as string),
);
const OUTBOX_MAX_BYTES = 1_048_576;

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'gs-fuzz-outbox-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

interface OutboxInput {
  readonly dir: 'dir' | 'file' | 'symlink';
  readonly entries: ReadonlyArray<{ readonly name: string | Uint8Array; readonly file: HostileFile }>;
}

const SHAPES = [
  { to: 'b', content: 'hi' },
  { to: 'b', content: 'q', reply_to: 'c-1' },
  { broadcast: true, content: 'all' },
  { to: 'b', content: 'x', reply_to: null },
];

const content: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: mutatedConfig(SHAPES).map((v) => JSON.stringify(v) ?? '') },
  { weight: 2, arbitrary: fc.constantFrom(...SHAPES).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);

const name: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9_-]{1,12}\.json$/) },
  { weight: 1, arbitrary: fc.constantFrom('.json', '.hidden.json', 'x.JSON', 'x.json.tmp', 'noext', `${'n'.repeat(250)}.json`, ' .json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Uint8Array.from([0xff, 0xfe, 0x2e, 0x6a, 0x73, 0x6f, 0x6e]),
      Uint8Array.from([0xc0, 0xae, 0x2e, 0x6a, 0x73, 0x6f, 0x6e]),
    ),
  },
);

/** Writes an entry by raw name bytes (a name that is not UTF-8 goes through a Buffer path). */
function plantNamed(dir: string, raw: string | Uint8Array, file: HostileFile): void {
  const path = typeof raw === 'string' ? join(dir, raw) : Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(raw)]);
  if (typeof path === 'string') plantFile(path, file);
  else if (file.kind === 'file') writeFileSync(path, typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes));
  else writeFileSync(path, '{}');
}

function checkEntry(entry: OutboxEntry): void {
  if (entry.kind === 'rejected') {
    if (!MESSAGING_WORDS.has(entry.reason)) throw new Error(`undocumented outbox rejection reason ${entry.reason}`);
    return;
  }
  const m = entry.message;
  if (m.kind !== 'broadcast' && !NAME_RE.test(m.to)) throw new Error(`routed to a non-Name ${JSON.stringify(m.to)}`);
  if (typeof m.content !== 'string') throw new Error('routed a message without string content');
}

const target: FuzzTarget<OutboxInput> = {
  name: 'outbox',
  arbitrary: fc.record({
    dir: fc.oneof(
      { weight: 10, arbitrary: fc.constant('dir' as const) },
      { weight: 1, arbitrary: fc.constantFrom('file' as const, 'symlink' as const) },
    ),
    entries: fc.uniqueArray(fc.record({ name, file: hostileFile(content, OUTBOX_MAX_BYTES) }), {
      maxLength: 5,
      selector: (e) => Buffer.from(e.name).toString('hex'),
    }),
  }),
  async check({ dir, entries }) {
    const outbox = join(workspace, '.outbox');
    rmSync(outbox, { recursive: true, force: true });
    rmSync(join(workspace, 'elsewhere'), { recursive: true, force: true });
    if (dir === 'file') writeFileSync(outbox, '{}');
    else if (dir === 'symlink') {
      mkdirSync(join(workspace, 'elsewhere'));
      symlinkSync(join(workspace, 'elsewhere'), outbox);
    } else mkdirSync(outbox);
    const target = dir === 'symlink' ? join(workspace, 'elsewhere') : outbox;
    if (dir !== 'file') for (const e of entries) plantNamed(target, e.name, e.file);
    const drained = await drainOutbox(workspace, async (entry) => checkEntry(entry));
    if (drained.kind === 'dir_rejected' && !MESSAGING_WORDS.has(drained.reason))
      throw new Error(`undocumented outbox dir reason ${drained.reason}`);
    if (dir !== 'dir') return;
    // dot files are messages still being written (docs/messaging.md): left alone by design
    const left = readdirSync(outbox).filter(
      (n) => n.endsWith('.json') && !n.startsWith('.') && !entries.some((e) => e.file.kind === 'dir' && e.name === n),
    );
    if (left.length > 0) throw new Error(`the drain left ${left.join(', ')} in the outbox`);
  },
};

describe('fuzz: outbox (drainOutbox over a hostile .outbox)', () => {
  it('routes a well-formed message (the fuzz inputs reach the router)', async () => {
    mkdirSync(join(workspace, '.outbox'), { recursive: true });
    writeFileSync(join(workspace, '.outbox', 'm.json'), JSON.stringify({ to: 'b', content: 'hi' }));
    const seen: OutboxEntry[] = [];
    await drainOutbox(workspace, async (e) => void seen.push(e));
    expect(seen).toEqual([{ kind: 'message', message: { kind: 'direct', file: 'm.json', to: 'b', content: 'hi' } }]);
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated outboxes: no throw, no hang, every rejection a documented reason, nothing left behind', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
