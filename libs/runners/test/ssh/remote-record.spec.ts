/**
 * The host's record of an agent's remote client decides what a later start stops: it is read back only from a small
 * private file of the server user, with exactly its own fields; anything else is `invalid` (the start refuses).
 */
import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseRemoteRecord, readRemoteRecord, writeRemoteRecord, type RemoteRecord } from '../../src/lib/ssh/remote-record';
import { makeSandboxDirs } from '../support';

const dirs = makeSandboxDirs('gs-ssh-record-');
afterAll(() => dirs.cleanup());
const uid = process.geteuid?.() ?? 0;
const ID = 'a'.repeat(32);
const RECORD: RemoteRecord = {
  user: 'dev',
  host: 'build-1',
  port: 22,
  dir: `/home/dev/.genswarms-ssh/agents/${ID}`,
  pid: 4242,
  startTime: '987654',
};
const good = { version: 1, ...RECORD };

describe('the ssh client record', () => {
  it('round-trips through a 0600 file in a 0700 directory', () => {
    const dir = path.join(dirs.home, 'ssh-clients');
    writeRemoteRecord(dir, ID, uid, RECORD);
    expect(readRemoteRecord(dir, ID, uid)).toEqual({ kind: 'ok', record: RECORD });
    writeRemoteRecord(dir, ID, uid, { ...RECORD, pid: 7 }); // overwritten, never appended
    expect(readRemoteRecord(dir, ID, uid)).toMatchObject({ kind: 'ok', record: { pid: 7 } });
  });

  it('is missing when never written (the only answer a start goes on from)', () => {
    expect(readRemoteRecord(path.join(dirs.home, 'none'), ID, uid)).toEqual({ kind: 'missing' });
  });

  it('refuses an agent id that is not 32 hex characters', () => {
    expect(() => readRemoteRecord(dirs.home, '../x', uid)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });

  test.each<[string, string]>([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['version 2', JSON.stringify({ ...good, version: 2 })],
    ['an extra field', JSON.stringify({ ...good, extra: 1 })],
    ['a __proto__ field', `{"__proto__":{"pid":1},${JSON.stringify(good).slice(1)}`],
    ['a missing field', JSON.stringify({ ...good, dir: undefined })],
    ['pid 0', JSON.stringify({ ...good, pid: 0 })],
    ['a pid as text', JSON.stringify({ ...good, pid: '4242' })],
    ['a start time with shell syntax', JSON.stringify({ ...good, startTime: '1;reboot' })],
    ['port 70000', JSON.stringify({ ...good, port: 70000 })],
  ])('parses %s as invalid', (_what, text) => {
    expect(parseRemoteRecord(text).kind).toBe('invalid');
  });

  test.each<[string, (file: string) => void]>([
    ['a symlink', (file) => symlinkSync(path.join(dirs.root, 'elsewhere.json'), file)],
    ['group-readable', (file) => (writeFileSync(file, JSON.stringify(good)), chmodSync(file, 0o640))],
    ['a directory', (file) => mkdirSync(file)],
    ['oversize', (file) => writeFileSync(file, JSON.stringify({ ...good, host: 'h'.repeat(4000) }), { mode: 0o600 })],
    ...(uid === 0
      ? [
          [
            'owned by another user',
            (file: string) => (writeFileSync(file, JSON.stringify(good), { mode: 0o600 }), chownSync(file, 4242, 4242)),
          ] as [string, (file: string) => void],
        ]
      : []),
  ])('reads a record file that is %s as invalid', (what, plant) => {
    const dir = path.join(dirs.home, `planted-${what.replace(/[^a-z]/g, '')}`);
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(path.join(dirs.root, 'elsewhere.json'), JSON.stringify(good), { mode: 0o600 });
    plant(path.join(dir, `${ID}.json`));
    expect(readRemoteRecord(dir, ID, uid).kind).toBe('invalid');
  });
});
