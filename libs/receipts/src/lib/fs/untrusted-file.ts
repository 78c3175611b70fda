import { assertByteBound } from '../bounds/bounds';
import { readBoundedFile } from './bounded-reader';
import { snapshotDirChain } from './dir-chain';
import { assertPlainName, assertRealPathForm } from './path-rules';
import type { ReceiptReason } from './reasons';

export type UntrustedRead = { kind: 'ok'; data: Buffer } | { kind: 'missing' } | { kind: 'refused'; reason: ReceiptReason };

/**
 * Bounded read of `<dirReal>/<name>` under the receipt rules (used for outbox files too). `dirReal` must
 * itself be a real directory (a link → receipt_symlink, other → receipt_not_regular); a missing
 * directory or file → missing. Throws ReceiptError only for a bad name, path or bound.
 */
export async function readUntrustedFile(dirReal: string, name: string, maxBytes: number): Promise<UntrustedRead> {
  assertRealPathForm(dirReal, 'dirReal');
  assertPlainName(name);
  assertByteBound(maxBytes, 'maxBytes');
  const dir = snapshotDirChain([dirReal]);
  if (dir.kind !== 'ok') return dir;
  const read = readBoundedFile(dir.chain, name, maxBytes);
  if (read.kind === 'ok') return { kind: 'ok', data: read.data };
  return read;
}
