import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { chainSteps } from '../src/http/chain-steps';

// chainSteps runs several pipeline steps in one express layer with express's `next` semantics.
const req = {} as Request;
const res = {} as Response;

function run(steps: RequestHandler[]): { calls: string[]; outcome: unknown[] } {
  const calls: string[] = [];
  const outcome: unknown[] = [];
  const wrapped = steps.map(
    (s, i) =>
      ((rq: Request, rs: Response, nx: NextFunction) => {
        calls.push(`s${i}`);
        return s(rq, rs, nx);
      }) as RequestHandler,
  );
  chainSteps(wrapped)(req, res, (err?: unknown) => outcome.push(err ?? 'next'));
  return { calls, outcome };
}

test('runs every step in order, then hands on to the next layer once', () => {
  const pass: RequestHandler = (_q, _s, next) => next();
  expect(run([pass, pass, pass])).toEqual({ calls: ['s0', 's1', 's2'], outcome: ['next'] });
});

test('a step that answers stops the chain (the next layer is never called)', () => {
  const pass: RequestHandler = (_q, _s, next) => next();
  const answer: RequestHandler = () => undefined;
  expect(run([pass, answer, pass])).toEqual({ calls: ['s0', 's1'], outcome: [] });
});

test('next(err) and a throw go to the error handler, skipping the later steps', () => {
  const pass: RequestHandler = (_q, _s, next) => next();
  const fails: RequestHandler = (_q, _s, next) => next(new Error('boom'));
  const throws: RequestHandler = () => {
    throw new Error('thrown');
  };
  const a = run([pass, fails, pass]);
  expect([a.calls, (a.outcome[0] as Error).message]).toEqual([['s0', 's1'], 'boom']);
  const b = run([throws, pass]);
  expect([b.calls, (b.outcome[0] as Error).message]).toEqual([['s0'], 'thrown']);
});

test('a step answering later (asynchronously) continues the chain from where it was', async () => {
  const later: RequestHandler = (_q, _s, next) => void setImmediate(() => next());
  const pass: RequestHandler = (_q, _s, next) => next();
  const calls: string[] = [];
  await new Promise<void>((resolve) =>
    chainSteps(
      [later, pass].map((s, i) => ((q: Request, r: Response, n: NextFunction) => (calls.push(`s${i}`), s(q, r, n))) as RequestHandler),
    )(req, res, () => resolve()),
  );
  expect(calls).toEqual(['s0', 's1']);
});
