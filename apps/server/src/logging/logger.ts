import type { Writable } from 'node:stream';
import { isSecretKey, redactSecrets, redactUrl, REDACTED } from '@genswarms/security';
import winston from 'winston';
import { DEFAULT_LOG_LEVEL } from './log-level';
import type { LogLevel } from './log-level';

/** The server's logger type (winston). */
export type ServerLogger = winston.Logger;

/** Fields never logged at all: credentials travel in them. */
const NEVER_LOGGED = new Set(['authorization', 'auth', 'cookie', 'headers', 'handshake', 'proxy-authorization']);
const URL_FIELDS = new Set(['url', 'route', 'path', 'originalUrl']);
const TOKEN_IN_TEXT_RE = /([?&][^=&\s#]*(?:token|secret|api_?key)[^=&\s#]*=)[^&\s#]*/gi;
const BEARER_IN_TEXT_RE = /(Bearer\s+)\S+/g;

function scrubText(text: string): string {
  return text.replace(TOKEN_IN_TEXT_RE, `$1${REDACTED}`).replace(BEARER_IN_TEXT_RE, `$1${REDACTED}`);
}

/** Redacts a log record in place (winston keeps symbol keys on it, so it cannot be replaced by a copy). */
export function scrubLogRecord(info: Record<string, unknown>): void {
  for (const key of Object.keys(info)) {
    const value = info[key];
    if (NEVER_LOGGED.has(key.toLowerCase()) || isSecretKey(key)) info[key] = REDACTED;
    else if (typeof value === 'string') info[key] = URL_FIELDS.has(key) ? scrubText(redactUrl(value)) : scrubText(value);
    else if (value !== null && typeof value === 'object') info[key] = JSON.parse(scrubText(JSON.stringify(redactSecrets(value))));
  }
}

const scrub = winston.format((info) => {
  scrubLogRecord(info as unknown as Record<string, unknown>);
  return info;
});

/** JSON logger writing one line per record to `stream` (default stderr), every record scrubbed of secrets. */
export function createServerLogger(stream: Writable = process.stderr, level: LogLevel = DEFAULT_LOG_LEVEL): ServerLogger {
  return winston.createLogger({
    level,
    format: winston.format.combine(scrub(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Stream({ stream })],
  });
}

/**
 * One `error` record written straight to `stream`, in the logger's format, for the line printed right
 * before the process exits: winston's pipeline may still hold a record when `process.exit` runs.
 */
export function writeFatalRecord(stream: Writable, message: string, fields: Readonly<Record<string, unknown>>): void {
  const record: Record<string, unknown> = { ...fields, level: 'error', message };
  scrubLogRecord(record);
  stream.write(`${JSON.stringify({ ...record, timestamp: new Date().toISOString() })}\n`);
}
