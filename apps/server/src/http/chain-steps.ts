import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs pipeline steps one after another inside a single express layer, in the given order, with express's
 * `next` semantics: a step that answers stops the chain, `next(err)` goes to the error handler, a throw too.
 * Each express layer costs path matching and dispatch on every request; the steps that apply to every path
 * need none of it (`GET /api/swarms` against a bare express route).
 */
export function chainSteps(steps: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null && err !== false) {
        next(err);
        return;
      }
      const current = steps[i++];
      if (current === undefined) {
        next();
        return;
      }
      try {
        const out: unknown = current(req, res, step);
        if (out instanceof Promise) out.catch((e: unknown) => next(e));
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}

/** `step` for the requests `applies` to; every other request goes straight on (no express routing for it). */
export function onlyFor(applies: (req: Request) => boolean, step: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): unknown => (applies(req) ? step(req, res, next) : next());
}
