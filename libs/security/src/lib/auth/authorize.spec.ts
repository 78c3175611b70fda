import { authorize, createAuthorizer, TOKEN_REQUIRED_BODY, UNAUTHORIZED_BODY } from './authorize';
import type { AuthDecision } from './authorize';

const F = 'full-token-Ω';
const C = 'config-token';
const LOOP = '127.0.0.1';
const REMOTE = '10.1.2.3';

type Row = [string, string | undefined, string | undefined, string, string | undefined, AuthDecision, AuthDecision];

// docs/security.md matrix: [label, F, C, peer, presented, full-scope, config-scope]
const MATRIX: Row[] = [
  ['F,C unset: loopback, no header', undefined, undefined, LOOP, undefined, 'ok', 'ok'],
  ['F,C unset: IPv6 loopback, no header', undefined, undefined, '::1', undefined, 'ok', 'ok'],
  ['F,C unset: mapped loopback, no header', undefined, undefined, '::ffff:127.0.0.1', undefined, 'ok', 'ok'],
  ['F,C unset: remote, no header', undefined, undefined, REMOTE, undefined, 'token_required', 'token_required'],
  ['F,C unset: remote, some header', undefined, undefined, REMOTE, 'anything', 'token_required', 'token_required'],
  ['F,C unset: unknown peer', undefined, undefined, undefined as unknown as string, undefined, 'token_required', 'token_required'],
  ['F,C set: Bearer F (remote)', F, C, REMOTE, F, 'ok', 'ok'],
  ['F,C set: Bearer F (loopback)', F, C, LOOP, F, 'ok', 'ok'],
  ['F,C set: Bearer C (remote)', F, C, REMOTE, C, 'unauthorized', 'ok'],
  ['F,C set: Bearer C (loopback)', F, C, LOOP, C, 'unauthorized', 'ok'],
  ['F,C set: none, loopback', F, C, LOOP, undefined, 'unauthorized', 'unauthorized'],
  ['F,C set: none, remote', F, C, REMOTE, undefined, 'unauthorized', 'unauthorized'],
  ['F,C set: wrong, loopback', F, C, LOOP, 'wrong', 'unauthorized', 'unauthorized'],
  ['F,C set: wrong, remote', F, C, REMOTE, 'wrong', 'unauthorized', 'unauthorized'],
  ['F,C set: empty Bearer', F, C, LOOP, '', 'unauthorized', 'unauthorized'],
  ['F,C set: F with trailing space', F, C, LOOP, `${F} `, 'unauthorized', 'unauthorized'],
  ['F,C set: F prefix only', F, C, LOOP, F.slice(0, 4), 'unauthorized', 'unauthorized'],
  ['C only: loopback, no header', undefined, C, LOOP, undefined, 'ok', 'unauthorized'],
  ['C only: loopback, Bearer C', undefined, C, LOOP, C, 'ok', 'ok'],
  ['C only: remote, Bearer C', undefined, C, REMOTE, C, 'token_required', 'ok'],
  ['C only: remote, no header', undefined, C, REMOTE, undefined, 'token_required', 'unauthorized'],
  ['C only: loopback, wrong', undefined, C, LOOP, 'wrong', 'ok', 'unauthorized'],
  ['F only: Bearer F (remote)', F, undefined, REMOTE, F, 'ok', 'ok'],
  ['F only: Bearer F (loopback)', F, undefined, LOOP, F, 'ok', 'ok'],
  ['F only: loopback, none', F, undefined, LOOP, undefined, 'unauthorized', 'unauthorized'],
  ['F only: remote, none', F, undefined, REMOTE, undefined, 'unauthorized', 'unauthorized'],
  ['F whitespace-only counts as unset', '   ', undefined, REMOTE, '   ', 'token_required', 'token_required'],
  ['F empty counts as unset', '', '', LOOP, '', 'ok', 'ok'],
];

describe('authorize (docs/security.md matrix)', () => {
  test.each(MATRIX)('%s', (_label, fullToken, configToken, peer, presented, full, config) => {
    const tokens = { fullToken, configToken };
    expect(authorize('full', presented, peer, tokens)).toBe(full);
    expect(authorize('config', presented, peer, tokens)).toBe(config);
  });

  test.each(MATRIX)(
    'createAuthorizer (digests computed once) decides the same: %s',
    (_l, fullToken, configToken, peer, presented, full, config) => {
      const decide = createAuthorizer({ fullToken, configToken });
      expect(decide('full', presented, peer)).toBe(full);
      expect(decide('config', presented, peer)).toBe(config);
    },
  );

  it('never accepts a token that is not exactly F, even one differing only in case', () => {
    expect(authorize('full', F.toUpperCase(), LOOP, { fullToken: F })).toBe('unauthorized');
  });
});

describe('401 bodies', () => {
  it('match the contract text exactly', () => {
    expect(UNAUTHORIZED_BODY).toEqual({ error: 'unauthorized', message: 'Invalid or missing API token' });
    expect(TOKEN_REQUIRED_BODY).toEqual({
      error: 'token_required',
      message: "API token required for non-local requests. Set GENSWARMS_API_TOKEN on the server and send 'Authorization: Bearer <token>'.",
    });
  });
});
