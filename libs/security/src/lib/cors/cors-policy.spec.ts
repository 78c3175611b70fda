import { corsHeadersFor, isOriginAllowed, parseCorsOrigins, preflightHeaders } from './cors-policy';
import type { CorsPolicy } from './cors-policy';

describe('parseCorsOrigins', () => {
  test.each<[string | undefined, CorsPolicy]>([
    [undefined, { kind: 'local' }],
    ['', { kind: 'local' }],
    ['   ', { kind: 'local' }],
    ['*', { kind: 'any' }],
    ['  *  ', { kind: 'any' }],
    ['*,https://a.example', { kind: 'list', origins: ['*', 'https://a.example'] }],
    [' https://a.example , ,https://b.example,', { kind: 'list', origins: ['https://a.example', 'https://b.example'] }],
    [',', { kind: 'list', origins: [] }],
  ])('%j → %j', (raw, policy) => {
    expect(parseCorsOrigins(raw)).toEqual(policy);
  });
});

describe('isOriginAllowed with the local default', () => {
  const local = parseCorsOrigins(undefined);
  test.each([
    'http://localhost',
    'http://localhost:3000',
    'https://localhost:443',
    'http://127.0.0.1',
    'http://127.0.0.1:8080',
    'http://[::1]:4000',
    'https://[::1]',
  ])('allows %s', (origin) => {
    expect(isOriginAllowed(local, origin)).toBe(true);
  });

  test.each([
    'http://localhost.evil.com',
    'http://localhost:3000.evil.com',
    'https://notlocalhost',
    'http://evil.com/localhost',
    'http://localhost/',
    'http://localhost:',
    'http://LOCALHOST',
    'ftp://localhost',
    'http://127.0.0.2',
    'http://[::2]',
    'http://localhost:3000\n',
    'null',
    '',
    undefined,
  ])('refuses %j', (origin) => {
    expect(isOriginAllowed(local, origin)).toBe(false);
  });
});

describe('isOriginAllowed with a list', () => {
  const list = parseCorsOrigins('https://app.example.com, http://x.test:8080');
  test.each<[string | undefined, boolean]>([
    ['https://app.example.com', true],
    ['http://x.test:8080', true],
    ['https://app.example.com:443', false],
    ['https://app.example.com/', false],
    ['https://APP.example.com', false],
    ['http://app.example.com', false],
    ['http://localhost:3000', false],
    [undefined, false],
  ])('%j → %s (exact match only, the local default no longer applies)', (origin, want) => {
    expect(isOriginAllowed(list, origin)).toBe(want);
  });
});

describe('isOriginAllowed with *', () => {
  test.each([['https://anything.example'], ['null'], ['http://localhost.evil.com']])('allows %s', (origin) => {
    expect(isOriginAllowed({ kind: 'any' }, origin)).toBe(true);
  });
  it('still refuses a missing Origin', () => {
    expect(isOriginAllowed({ kind: 'any' }, undefined)).toBe(false);
  });
});

describe('corsHeadersFor', () => {
  it('echoes an allowed origin with Vary and nothing else', () => {
    expect(corsHeadersFor({ kind: 'local' }, 'http://localhost:3000')).toEqual({
      'Access-Control-Allow-Origin': 'http://localhost:3000',
      Vary: 'Origin',
    });
  });
  it('echoes the origin under * instead of a literal *', () => {
    expect(corsHeadersFor({ kind: 'any' }, 'https://x.example')['Access-Control-Allow-Origin']).toBe('https://x.example');
  });
  test.each([undefined, 'http://localhost.evil.com'])('gives no headers for %j', (origin) => {
    expect(corsHeadersFor({ kind: 'local' }, origin)).toEqual({});
  });
});

describe('preflightHeaders', () => {
  it('answers an allowed origin with the requested method and normalised headers', () => {
    expect(
      preflightHeaders({ kind: 'local' }, { origin: 'http://localhost:3000', method: 'PATCH', headers: 'Authorization, Content-Type' }),
    ).toEqual({
      'Access-Control-Allow-Origin': 'http://localhost:3000',
      Vary: 'Origin',
      'Access-Control-Allow-Methods': 'PATCH',
      'Access-Control-Allow-Headers': 'authorization,content-type',
    });
  });
  it('omits Allow-Headers when none were requested and never sends Max-Age or credentials', () => {
    const h = preflightHeaders({ kind: 'any' }, { origin: 'https://a.example', method: 'POST' });
    expect(Object.keys(h).sort()).toEqual(['Access-Control-Allow-Methods', 'Access-Control-Allow-Origin', 'Vary']);
  });
  test.each([undefined, 'https://evil.example'])('gives no headers to a disallowed origin %j', (origin) => {
    expect(preflightHeaders({ kind: 'local' }, { origin, method: 'POST', headers: 'authorization' })).toEqual({});
  });
  it('does not echo a requested method that is not an HTTP token', () => {
    expect(preflightHeaders({ kind: 'any' }, { origin: 'https://a', method: 'PO ST' })['Access-Control-Allow-Methods']).toBeUndefined();
  });
});
