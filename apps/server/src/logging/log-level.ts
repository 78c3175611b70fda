/** `GENSWARMS_LOG_LEVEL` values, most to least severe (winston's npm levels, the three between them unused). */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Level when GENSWARMS_LOG_LEVEL is unset: requests (debug) are not logged. */
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/** `ok` with the level (the default when unset or blank), or `invalid` with the reason naming the accepted values. */
export function parseLogLevel(raw: string | undefined): { kind: 'ok'; level: LogLevel } | { kind: 'invalid'; reason: string } {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '') return { kind: 'ok', level: DEFAULT_LOG_LEVEL };
  const level = LOG_LEVELS.find((l) => l === value);
  if (level !== undefined) return { kind: 'ok', level };
  return { kind: 'invalid', reason: `${JSON.stringify(raw?.trim())}: expected one of ${LOG_LEVELS.join(', ')}` };
}
