import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteStore } from './sqlite-store';

const RANGE = { first: 500, last: 504 }; // 500 is the shared group: agents get 501..504
const AT = '2026-12-04T00:00:00.000Z';
const idle = (): boolean => true;

describe('agent ids: one uid:gid per agent, kept in the store', () => {
  let home: string;
  let store: SqliteStore;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-agent-ids-'));
    store = SqliteStore.open(home);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('gives each agent its own id above the group, uid = gid, in order', () => {
    const got = ['a', 'b', 'c'].map((a) => store.agentIds.allocate('s', a, RANGE, AT, idle));
    expect(got).toEqual([
      { kind: 'ok', ids: { uid: 501, gid: 501 }, fresh: true },
      { kind: 'ok', ids: { uid: 502, gid: 502 }, fresh: true },
      { kind: 'ok', ids: { uid: 503, gid: 503 }, fresh: true },
    ]);
  });

  it('answers the same ids for the same agent, also after the store is reopened (restart, recovery)', async () => {
    store.agentIds.allocate('s', 'a', RANGE, AT, idle);
    store.agentIds.allocate('t', 'a', RANGE, AT, idle); // same agent name, another swarm: another id
    await store.close();
    store = SqliteStore.open(home);
    expect(store.agentIds.allocate('s', 'a', RANGE, AT, idle)).toEqual({ kind: 'ok', ids: { uid: 501, gid: 501 }, fresh: false });
    expect(store.agentIds.held('t', 'a')).toEqual({ uid: 502, gid: 502 });
  });

  it('refuses with exhausted when every id is held', () => {
    for (const a of ['a', 'b', 'c', 'd']) expect(store.agentIds.allocate('s', a, RANGE, AT, idle).kind).toBe('ok');
    expect(store.agentIds.allocate('s', 'e', RANGE, AT, idle)).toEqual({ kind: 'exhausted' });
  });

  it('previews without writing (validate)', () => {
    expect(store.agentIds.preview('s', 'a', RANGE)).toEqual({ uid: 501, gid: 501 });
    expect(store.agentIds.preview('s', 'a', RANGE)).toEqual({ uid: 501, gid: 501 });
    expect(store.agentIds.held('s', 'a')).toBeNull();
  });

  test.each<[string, boolean, boolean, number | 'exhausted']>([
    ['a purged agent whose files are gone and that has no process', true, true, 501],
    ['an agent whose named workspace still holds its files', false, true, 'exhausted'],
    ['an id with a process still running as it', true, false, 'exhausted'],
  ])('reuses a released id only for %s', (_label, reusable, isIdle, expected) => {
    for (const a of ['a', 'b', 'c', 'd']) store.agentIds.allocate('s', a, RANGE, AT, idle);
    store.agentIds.release('s', new Set(reusable ? ['a'] : []), AT);
    expect(store.agentIds.held('s', 'a')).toBeNull();
    const got = store.agentIds.allocate('n', 'x', RANGE, AT, () => isIdle);
    expect(got.kind === 'ok' ? got.ids.uid : got.kind).toBe(expected);
  });

  it('hands out never-used ids before any released one', () => {
    store.agentIds.allocate('s', 'a', RANGE, AT, idle);
    store.agentIds.release('s', new Set(['a']), AT);
    expect(store.agentIds.allocate('n', 'x', RANGE, AT, idle)).toMatchObject({ ids: { uid: 502 } });
  });

  it('a released agent that comes back gets a new id (its old one may hold nothing of it now)', () => {
    store.agentIds.allocate('s', 'a', RANGE, AT, idle);
    store.agentIds.release('s', new Set(), AT);
    expect(store.agentIds.allocate('s', 'a', RANGE, AT, idle)).toMatchObject({ ids: { uid: 502 }, fresh: true });
  });
});
