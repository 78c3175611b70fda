import { EngineError } from '../errors/engine-error';
import { guardStorage, isStorageFullError } from './storage-full';
import type { StorageEpisode } from './storage-full';
import type { Store } from './store';

function errorWith(code: string): Error {
  return Object.assign(new Error('x'), { code });
}

describe('isStorageFullError', () => {
  test.each([
    ['SQLITE_FULL', true],
    ['ENOSPC', true],
    ['EDQUOT', true],
    ['storage_full', true],
    ['SQLITE_BUSY', false],
    ['SQLITE_IOERR', false],
    ['EACCES', false],
    ['__proto__', false],
  ])('%s → %s', (code, full) => {
    expect(isStorageFullError(errorWith(code))).toBe(full);
    expect(isStorageFullError(new Error('wrapped', { cause: errorWith(code) }))).toBe(full);
  });

  test('non-errors are not storage errors', () => {
    for (const v of [null, undefined, 'SQLITE_FULL', 28, { code: 28 }]) expect(isStorageFullError(v)).toBe(false);
  });
});

describe('guardStorage', () => {
  function fakeStore(fail: { code: string | null }): Store {
    const answer = (value: unknown) => (): Promise<unknown> =>
      fail.code === null ? Promise.resolve(value) : Promise.reject(errorWith(fail.code));
    return {
      insertEvent: answer({ id: 1 }),
      enqueue: answer({ kind: 'ok' }),
      dispatchNext: answer(null),
      getTurn: () => Promise.resolve(null),
    } as unknown as Store;
  }

  test('a full disk is storage_full (507), reported once per outage, and the first write after it ends the outage', async () => {
    const fail: { code: string | null } = { code: 'SQLITE_FULL' };
    const full: StorageEpisode[] = [];
    const recovered: StorageEpisode[] = [];
    const store = guardStorage(fakeStore(fail), {
      onFull: (e) => full.push(e),
      onRecovered: (e) => recovered.push(e),
      now: () => '2026-01-01T00:00:00.000Z',
    });
    for (let i = 0; i < 3; i++) {
      const err = await store
        .enqueue({ swarm: 's', agent: 'a', id: 'i', kind: 'task', from: 'o', content: 'c', now: '', limit: 1 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect((err as EngineError).code).toBe('storage_full');
      expect((err as EngineError).status).toBe(507);
      expect((err as EngineError).details).toEqual({ operation: 'enqueue' });
    }
    expect(full).toEqual([{ since: '2026-01-01T00:00:00.000Z', firstOperation: 'enqueue', refusedWrites: 1 }]);
    fail.code = null;
    await store.getTurn('t'); // a read ends nothing
    await store.dispatchNext({ swarm: 's', agent: 'a', turnId: 't', now: '', messagesOnly: false }); // nothing dispatched: no write
    expect(recovered).toEqual([]);
    await store.insertEvent({} as never);
    expect(recovered).toEqual([{ since: '2026-01-01T00:00:00.000Z', firstOperation: 'enqueue', refusedWrites: 3 }]);
    await store.insertEvent({} as never);
    expect(recovered).toHaveLength(1);
  });

  test('other failures pass through unchanged', async () => {
    const store = guardStorage(fakeStore({ code: 'SQLITE_BUSY' }), {
      onFull: () => undefined,
      onRecovered: () => undefined,
      now: () => '',
    });
    const err = await store.insertEvent({} as never).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(EngineError);
    expect((err as { code: string }).code).toBe('SQLITE_BUSY');
  });
});
