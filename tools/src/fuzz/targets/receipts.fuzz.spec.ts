/**
 * Fuzz target `receipts` (docs/reliability.md "Fuzzing"): the turn receipt a hostile agent writes —
 * `done.json` (the valid record mutated key by key, raw bytes) and `reply.md` (marker blocks, valid and
 * broken) as regular files, links, FIFOs, directories or over-size files — read by the host's reader
 * (`readTurnReceipt`, libs/receipts) and the reply's markers parsed (`extractMarkers`, libs/engine).
 * Criteria: no throw, no hang (a FIFO must not block), every refusal a docs/receipts.md reason.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { extractMarkers } from '@genswarms/engine';
import { DONE_MAX_BYTES, RECEIPT_REASONS, REPLY_MAX_BYTES, readTurnReceipt } from '@genswarms/receipts';
import { NAME_RE } from '@genswarms/ir-gate';
import { mutatedConfig } from '../arbitraries/config-mutations';
import { hostileFile, plantFile } from '../arbitraries/hostile-files';
import type { HostileFile } from '../arbitraries/hostile-files';
import { replyText } from '../arbitraries/reply-text';
import { replayFuzzRegressions, runFuzzTarget } from '../fuzz-run';
import type { FuzzTarget } from '../fuzz-target';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'gs-fuzz-receipts-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** The turn id every generated record names; the reader is asked for it (a mismatch is one of the cases). */
const TURN = 'turn-fuzz-1';

interface ReceiptInput {
  readonly done: HostileFile;
  readonly reply: HostileFile;
}

const doneContent: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  {
    weight: 6,
    arbitrary: mutatedConfig([
      { v: 1, turn: TURN, status: 'ok' },
      { v: 1, turn: TURN, status: 'error', error: 'boom' },
    ]).map((v) => JSON.stringify(v) ?? ''),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      `{"v":1,"turn":"${TURN}","status":"ok"}`,
      `{"v":1,"turn":"${TURN}","status":"ok","__proto__":{"x":1}}`,
      `{"v":1,"turn":"${TURN}","status":"ok","v":2}`,
    ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.json() },
);

const target: FuzzTarget<ReceiptInput> = {
  name: 'receipts',
  arbitrary: fc.record({ done: hostileFile(doneContent, DONE_MAX_BYTES), reply: hostileFile(replyText, REPLY_MAX_BYTES) }),
  async check({ done, reply }) {
    const turnDir = join(workspace, '.genswarms', 'turns', TURN);
    rmSync(join(workspace, '.genswarms'), { recursive: true, force: true });
    mkdirSync(turnDir, { recursive: true, mode: 0o700 });
    plantFile(join(turnDir, 'done.json'), done);
    plantFile(join(turnDir, 'reply.md'), reply);
    const receipt = await readTurnReceipt(workspace, TURN);
    if (receipt.kind === 'refused' && !RECEIPT_REASONS.includes(receipt.reason)) throw new Error(`undocumented reason ${receipt.reason}`);
    if (receipt.kind === 'ok' && receipt.reply !== null) {
      const { blocks } = extractMarkers(receipt.reply);
      for (const b of blocks)
        if (b.kind === 'to' && !NAME_RE.test(b.to)) throw new Error(`marker addressed to a non-Name ${JSON.stringify(b.to)}`);
    }
  },
};

describe('fuzz: receipts (done.json + reply.md through readTurnReceipt and extractMarkers)', () => {
  it('reads a well-formed receipt (the fuzz inputs reach the reply)', async () => {
    await target.check({ done: { kind: 'file', bytes: `{"v":1,"turn":"${TURN}","status":"ok"}` }, reply: { kind: 'file', bytes: 'hi' } });
    expect(await readTurnReceipt(workspace, TURN)).toEqual({ kind: 'ok', status: 'ok', reply: 'hi' });
  });

  it('replays every saved failing case', async () => {
    expect(await replayFuzzRegressions(target)).toEqual([]);
  });

  it('generated receipts: no throw, no hang, every refusal a documented reason', async () => {
    expect((await runFuzzTarget(target)).failure).toBeUndefined();
  });
});
