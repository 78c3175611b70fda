import { inspect } from 'node:util';

/** Longest rendering of a value in a failure message, in characters (a whole pane capture is noise). */
export const SHOWN_VALUE_MAX_CHARS = 600;

/** One line for a failure message: `util.inspect`, two levels deep, cut at SHOWN_VALUE_MAX_CHARS. */
export function showValue(value: unknown): string {
  const text = inspect(value, { depth: 2, breakLength: Infinity, maxArrayLength: 20, maxStringLength: SHOWN_VALUE_MAX_CHARS });
  return text.length <= SHOWN_VALUE_MAX_CHARS ? text : `${text.slice(0, SHOWN_VALUE_MAX_CHARS)}… (${text.length} chars)`;
}
