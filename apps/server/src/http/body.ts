import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from './send-error';

/** Request body limit (docs/security.md step 5): 1 MiB. */
export const BODY_LIMIT_BYTES = 1048576;
const POISON_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

type BodyFailure = { kind: 'failed'; status: 400 | 413 | 415; error: string; message: string; details?: Record<string, unknown> };

const TOO_LARGE: BodyFailure = {
  kind: 'failed',
  status: 413,
  error: 'payload_too_large',
  message: 'Request body exceeds the limit',
  details: { limit: BODY_LIMIT_BYTES },
};
const INVALID_JSON: BodyFailure = {
  kind: 'failed',
  status: 400,
  error: 'invalid_json',
  message: 'Request body is not a valid JSON object',
};

function hasBody(req: Request): boolean {
  const length = Number(req.headers['content-length'] ?? '0');
  return req.headers['transfer-encoding'] !== undefined || (Number.isFinite(length) && length > 0) || Number.isNaN(length);
}

function isJsonMediaType(req: Request): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  return type === 'application/json' && encoding === 'identity';
}

function readRaw(req: Request): Promise<Buffer | BodyFailure> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** JSON.parse that refuses prototype-poisoning keys at any depth and any non-object top level. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let poisoned = false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => {
      if (POISON_KEYS.has(key)) poisoned = true;
      return value;
    });
  } catch {
    // expected: a body that is not JSON is refused by the caller (undefined)
    return undefined;
  }
  if (poisoned || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  return parsed as Record<string, unknown>;
}

type BodyResult = { kind: 'ok'; body: Record<string, unknown> } | BodyFailure;

async function parseBody(req: Request): Promise<BodyResult> {
  if (!hasBody(req)) return { kind: 'ok', body: {} };
  if (!isJsonMediaType(req))
    return { kind: 'failed', status: 415, error: 'unsupported_media_type', message: 'Request body must be application/json' };
  if (Number(req.headers['content-length'] ?? '0') > BODY_LIMIT_BYTES) return TOO_LARGE;
  const raw = await readRaw(req);
  if (!Buffer.isBuffer(raw)) return raw;
  const body = parseJsonObject(raw.toString('utf8'));
  return body === undefined ? INVALID_JSON : { kind: 'ok', body };
}

/** Pipeline step 5: no body → `{}`; 415 / 413 (with `limit`) / 400 `invalid_json` otherwise. Runs after auth. */
export function bodyStep(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) {
      // the common GET: nothing to read, so no promise and no extra turn of the event loop
      req.body = {};
      next();
      return;
    }
    parseBody(req).then(
      (result) => {
        if (result.kind === 'failed') {
          if (result.status === 413) res.setHeader('Connection', 'close');
          sendError(res, result.status, result.error, result.message, result.details);
          return;
        }
        req.body = result.body;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
