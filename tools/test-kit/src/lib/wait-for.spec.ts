import { TestKitError } from './test-kit-error';
import { waitFor } from './wait-for';

const failure = async (p: Promise<unknown>): Promise<TestKitError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof TestKitError)) throw new Error(`expected a TestKitError, got ${String(e)}`);
  return e;
};

describe('waitFor', () => {
  test.each<[string, unknown]>([
    ['true', true],
    ['zero', 0],
    ['an empty string', ''],
    ['an object', { pid: 1 }],
    ['NaN', Number.NaN],
  ])('resolves to the first settled value: %s', async (_name, value) => {
    let calls = 0;
    const got = await waitFor(() => (++calls < 3 ? undefined : value), 'the value', { intervalMs: 1 });
    expect(got).toBe(value);
    expect(calls).toBe(3);
  });

  test.each([undefined, null, false])('keeps polling while the probe returns %p', async (pending) => {
    let calls = 0;
    await expect(waitFor(() => (++calls < 5 ? pending : 'done'), 'x', { intervalMs: 1 })).resolves.toBe('done');
    expect(calls).toBe(5);
  });

  it('with until, resolves to the first accepted value, whatever it is', async () => {
    const seen = [3, 2, 1, 0];
    await expect(waitFor(() => seen.shift(), 'zero', { intervalMs: 1, until: (n) => n === 0 })).resolves.toBe(0);
  });

  it('awaits an async probe', async () => {
    let n = 0;
    await expect(waitFor(async () => (++n === 2 ? n : undefined), 'n', { intervalMs: 1 })).resolves.toBe(2);
  });

  it('times out naming what it waited for and the last value', async () => {
    const e = await failure(
      waitFor(() => ({ state: 'starting' }), 'the pane to start', { timeoutMs: 30, intervalMs: 5, until: (s) => s.state === 'up' }),
    );
    expect(e.code).toBe('timed_out');
    expect(e.message).toBe("timed out after 30 ms waiting for the pane to start; last value: { state: 'starting' }");
  });

  it('calls a what function only once it has timed out', async () => {
    const what = jest.fn(() => 'a receipt; stderr: boom');
    const e = await failure(waitFor(() => false, what, { timeoutMs: 10, intervalMs: 1 }));
    expect(what).toHaveBeenCalledTimes(1);
    expect(e.message).toMatch(/^timed out after 10 ms waiting for a receipt; stderr: boom; last value: false$/);
  });

  it('probes once more after the deadline', async () => {
    const start = Date.now();
    await expect(waitFor(() => Date.now() - start >= 40 || undefined, 'the deadline', { timeoutMs: 40, intervalMs: 500 })).resolves.toBe(
      true,
    );
  });

  it('ends with the error a probe throws', async () => {
    const boom = new Error('process vanished');
    await expect(
      waitFor(() => {
        throw boom;
      }, 'x'),
    ).rejects.toBe(boom);
  });

  it('cuts a huge last value', async () => {
    const e = await failure(waitFor(() => 'x'.repeat(100_000), 'screen', { timeoutMs: 1, until: (text) => text.includes('$ ') }));
    expect(e.message.length).toBeLessThan(800);
  });

  test.each<[string, { timeoutMs?: number; intervalMs?: number }]>([
    ['a zero timeout', { timeoutMs: 0 }],
    ['a negative timeout', { timeoutMs: -1 }],
    ['an infinite timeout (a wait with no deadline hangs until jest kills it, silently)', { timeoutMs: Infinity }],
    ['a NaN timeout', { timeoutMs: Number.NaN }],
    ['a negative interval', { intervalMs: -5 }],
    ['a NaN interval', { intervalMs: Number.NaN }],
  ])('refuses %s', async (_name, options) => {
    const probe = jest.fn(() => true);
    expect((await failure(waitFor(probe, 'x', options))).code).toBe('invalid_option');
    expect(probe).not.toHaveBeenCalled();
  });
});
