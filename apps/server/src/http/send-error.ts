import type { Response } from 'express';

/** docs/rest-api.md error body: `{error, message, ...details}`. */
export function sendError(res: Response, status: number, error: string, message: string, details?: Record<string, unknown>): void {
  res.status(status).json({ error, message, ...details });
}
