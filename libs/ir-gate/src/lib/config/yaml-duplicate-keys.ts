import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document } from 'yaml';

/**
 * The offset of the first duplicate key of any mapping in the document, or -1. Linear: one Set per mapping.
 * (The parser's own `uniqueKeys` compares every key with every other key of a mapping: a 700 KB mapping of
 * 50,000 keys took 88 s, a denial of service on `POST /api/config/validate`.) Two keys are duplicates
 * when both are scalars of the same value, as `uniqueKeys: true` decides.
 */
export function findDuplicateYamlKey(doc: Document): number {
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) pending.push(...node.items);
    else if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const item of node.items) {
        if (!isPair(item)) continue;
        if (isScalar(item.key)) {
          if (seen.has(item.key.value)) return item.key.range?.[0] ?? 0;
          seen.add(item.key.value);
        } else pending.push(item.key);
        pending.push(item.value);
      }
    }
  }
  return -1;
}
