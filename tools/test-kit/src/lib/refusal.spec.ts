import { codeOf, refusal } from './refusal';
import { TestKitError } from './test-kit-error';

class LibError extends Error {
  constructor(readonly code: 'bad_input' | 'too_large') {
    super(code);
  }
}
class OtherError extends Error {
  readonly code = 'bad_input';
}

const thrower = (e: unknown) => (): never => {
  throw e;
};
const kitCode = (run: () => unknown): string => {
  try {
    run();
  } catch (e) {
    if (e instanceof TestKitError) return e.code;
  }
  return 'none';
};
const kitCodeAsync = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'none',
    (e: unknown) => (e instanceof TestKitError ? e.code : 'none'),
  );

describe('refusal', () => {
  it('returns the thrown error of the class', () => {
    const e = new LibError('too_large');
    expect(refusal(LibError, thrower(e))).toBe(e);
  });

  it('resolves to the rejection of the class', async () => {
    const e = new LibError('bad_input');
    await expect(refusal(LibError, Promise.reject(e))).resolves.toBe(e);
  });

  test.each<[string, () => unknown, string]>([
    ['a function that returns', () => 42, 'not_refused'],
    ['an error of another class with the same code', thrower(new OtherError()), 'wrong_error'],
    ['a thrown string', thrower('bad_input'), 'wrong_error'],
    ['a thrown object shaped like the error', thrower({ code: 'bad_input', __proto__: LibError.prototype.constructor }), 'wrong_error'],
    [
      'a function returning a promise (its rejection would go unseen)',
      () => Promise.reject(new LibError('bad_input')).catch(() => 1),
      'promise_from_sync',
    ],
  ])('fails on %s', (_name, run, code) => {
    expect(kitCode(() => refusal(LibError, run))).toBe(code);
  });

  test.each<[string, () => Promise<unknown>, string]>([
    ['a promise that resolves', async () => 'ok', 'not_refused'],
    ['a rejection of another class', async () => Promise.reject(new OtherError()), 'wrong_error'],
    ['a rejection with undefined', async () => Promise.reject(undefined), 'wrong_error'],
  ])('fails on %s', async (_name, make, code) => {
    expect(await kitCodeAsync(refusal(LibError, make()))).toBe(code);
  });

  it('keeps the unexpected error as the cause and names both', () => {
    const other = new OtherError('disk full');
    try {
      refusal(LibError, thrower(other));
      throw new Error('unreachable');
    } catch (e) {
      expect(e).toBeInstanceOf(TestKitError);
      expect((e as TestKitError).cause).toBe(other);
      expect((e as TestKitError).message).toMatch(/^expected a LibError, got .*disk full/);
    }
  });
});

describe('codeOf', () => {
  test.each<[string, () => unknown, string | undefined]>([
    ['a refusal', thrower(new LibError('too_large')), 'too_large'],
    ['a return', () => 'planned', undefined],
  ])('%s', (_name, run, expected) => {
    expect(codeOf(LibError, run)).toBe(expected);
  });

  it('reads the code of a rejection, or undefined for a resolution', async () => {
    await expect(codeOf(LibError, Promise.reject(new LibError('bad_input')))).resolves.toBe('bad_input');
    await expect(codeOf(LibError, Promise.resolve(1))).resolves.toBeUndefined();
  });

  it('fails on an error of another class', async () => {
    expect(kitCode(() => codeOf(LibError, thrower(new OtherError())))).toBe('wrong_error');
    expect(await kitCodeAsync(codeOf(LibError, Promise.reject(new Error('x'))))).toBe('wrong_error');
  });
});
