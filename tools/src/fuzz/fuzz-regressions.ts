import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../build-once/build-once';
import { decodeFuzzValue, encodeFuzzValue } from './fuzz-value';
import type { FuzzJson } from './fuzz-value';

/** Where shrunk failing cases are saved, one folder per target; the target's spec replays every file. */
export const FUZZ_REGRESSIONS_DIR = join(REPO_ROOT, 'tools', 'fuzz', 'regressions');

/** A saved failing case: the shrunk input and how it was found. `version` pins the file format. */
export interface FuzzRegression {
  readonly version: 1;
  readonly target: string;
  readonly seed: number;
  /** fast-check's replay path of the counterexample in that seed's run. */
  readonly path: string;
  /** The failure it showed when found (one line). */
  readonly error: string;
  readonly input: FuzzJson;
}

/** Saves a shrunk failing case; returns its file (named by a hash of the input, so a re-find overwrites it). */
export function saveFuzzRegression(
  target: string,
  found: { seed: number; path: string; error: string; input: unknown },
  root = FUZZ_REGRESSIONS_DIR,
): string {
  const dir = join(root, target);
  mkdirSync(dir, { recursive: true });
  const input = encodeFuzzValue(found.input);
  const text = JSON.stringify(input);
  const file = join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 12)}.json`);
  const doc: FuzzRegression = { version: 1, target, seed: found.seed, path: found.path, error: found.error, input };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

/** The saved cases of a target (none when its folder does not exist), decoded, sorted by file name. */
export function loadFuzzRegressions(target: string, root = FUZZ_REGRESSIONS_DIR): Array<{ file: string; input: unknown }> {
  const dir = join(root, target);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    // expected: a target with no saved case has no folder
    return [];
  }
  return names.sort().map((name) => {
    const doc = JSON.parse(readFileSync(join(dir, name), 'utf8')) as FuzzRegression;
    if (doc.version !== 1 || doc.target !== target) throw new Error(`${name}: not a version 1 regression of ${target}`);
    return { file: name, input: decodeFuzzValue(doc.input) };
  });
}
