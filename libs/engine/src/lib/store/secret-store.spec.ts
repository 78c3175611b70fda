import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SecretFiles } from './secret-files';
import { externalizeSecrets, resolveSecrets, SECRET_REF_KEY } from './secret-refs';

describe('secret references', () => {
  const stored = new Map<string, unknown>();
  const sink = {
    put: (v: unknown): string => {
      const id = `id${stored.size}`;
      stored.set(id, v);
      return id;
    },
  };
  const source = { get: (id: string) => (stored.has(id) ? { found: true as const, value: stored.get(id) } : { found: false as const }) };
  beforeEach(() => stored.clear());

  it.each([
    ['api_key', { api_key: 'k1' }],
    ['a nested secret-named key', { agents: [{ name: 'a', backend: { opts: { auth_token: 'k1' } } }] }],
    ['a config.env value', { config: { env: { PLAIN_NAME: 'k1' } } }],
    ['an env that is not a map', { config: { env: ['k1'] } }],
    ['a handler-declared key', { objects: [{ config: { dsn: 'k1' } }] }],
    ['a secret-named non-string value', { password: { nested: 'k1' } }],
    ['an env named __proto__', JSON.parse('{"config":{"env":{"__proto__":"k1"}}}') as unknown],
  ])('moves %s out and puts it back', (_what, value) => {
    const out = externalizeSecrets(value, sink, { isConfigSecretKey: (k) => k === 'dsn' });
    expect(JSON.stringify(out)).not.toContain('k1');
    expect(resolveSecrets(out, source, { isConfigSecretKey: (k) => k === 'dsn' })).toEqual(value);
  });

  it('keeps plain values where they are', () => {
    const value = { name: 'a', config: { step: 1 }, objects: [{ name: 'o', config: { level: 2 } }] };
    expect(externalizeSecrets(value, sink)).toEqual(value);
    expect(stored.size).toBe(0);
  });

  it('resolves a reference only at a secret position (a $secret object elsewhere is plain data)', () => {
    stored.set('x', 'the-secret');
    const value = { note: { [SECRET_REF_KEY]: 'x' }, config: { level: { [SECRET_REF_KEY]: 'x' } } };
    expect(resolveSecrets(value, source)).toEqual(value);
  });

  it('drops a reference whose value is gone (fail-closed) and keeps a plain value from before secrets left the database', () => {
    expect(resolveSecrets({ api_key: { [SECRET_REF_KEY]: 'gone' }, config: { env: { A: { [SECRET_REF_KEY]: 'gone' } } } }, source)).toEqual(
      {
        config: { env: {} },
      },
    );
    expect(resolveSecrets({ api_key: 'legacy' }, source)).toEqual({ api_key: 'legacy' });
  });
});

describe('SecretFiles', () => {
  let home: string;
  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-secrets-')));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('stores a value 0600 in a 0700 directory, answers the same id for the same value and reads it back', () => {
    const files = new SecretFiles(home);
    const id = files.put('s', 'v1');
    expect(files.put('s', 'v1')).toBe(id);
    expect(files.put('s', 'v2')).not.toBe(id);
    expect(files.get('s', id)).toEqual({ found: true, value: 'v1' });
    expect(fs.statSync(path.join(home, 'secrets')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(home, 'secrets', 's', id)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(home, 'secrets', 's')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // A new instance (a restart) reuses the key: same value, same id.
    expect(new SecretFiles(home).put('s', 'v1')).toBe(id);
  });

  it.each(['../x', '..', '.', 'a/b', 'a\0b', '', '__proto__/..'])('refuses the swarm name %j', (name) => {
    expect(() => new SecretFiles(home).put(name, 'v')).toThrow();
  });

  it.each(['../.key', '.key', 'ABC', 'x'.repeat(32)])('answers not found for the id %j', (id) => {
    const files = new SecretFiles(home);
    files.put('s', 'v');
    expect(files.get('s', id)).toEqual({ found: false });
  });

  it('refuses a symlinked swarm directory and a secret file readable by others', () => {
    const files = new SecretFiles(home);
    const id = files.put('s', 'v');
    fs.chmodSync(path.join(home, 'secrets', 's', id), 0o644);
    expect(() => files.get('s', id)).toThrow();
    fs.mkdirSync(path.join(home, 'elsewhere'));
    fs.symlinkSync(path.join(home, 'elsewhere'), path.join(home, 'secrets', 'linked'));
    expect(() => files.put('linked', 'v')).toThrow();
    expect(fs.readdirSync(path.join(home, 'elsewhere'))).toEqual([]);
  });

  it('purge removes the swarm directory only', () => {
    const files = new SecretFiles(home);
    files.put('s', 'v');
    const other = files.put('t', 'w');
    files.purge('s');
    expect(fs.existsSync(path.join(home, 'secrets', 's'))).toBe(false);
    expect(files.get('t', other)).toEqual({ found: true, value: 'w' });
  });
});
