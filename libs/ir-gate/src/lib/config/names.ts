import { z } from 'zod';

/** A Name (docs/configuration.md). JS `$` without the `m` flag does not match before a final `\n`. */
export const NAME_RE = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

/** True when `value` is a Name (swarm, agent or object name). */
export function isName(value: unknown): value is string {
  return typeof value === 'string' && NAME_RE.test(value);
}

/** Names become file, tmux and container names: ASCII letter first, at most 64 chars. */
export const NameSchema = z
  .string()
  .regex(NAME_RE, 'must start with a letter and contain only letters, digits, _ or - (max 64 chars)')
  .describe('A name: ^[a-zA-Z][a-zA-Z0-9_-]{0,63}$');
