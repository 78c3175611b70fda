import type { NextFunction, Request, Response } from 'express';

/** Pipeline step 1: headers on every response (X-Powered-By is disabled on the app). */
export function hardeningHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  next();
}
