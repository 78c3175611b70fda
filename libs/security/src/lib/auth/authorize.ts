import { isLoopback } from './loopback';
import { digestsMatch, normalizeToken, presentedDigest, tokenDigest, tokensMatch } from './token';

/** `full` = GENSWARMS_API_TOKEN (F); `config` = F or GENSWARMS_CONFIG_API_TOKEN (C). */
export type Scope = 'full' | 'config';
export type AuthDecision = 'ok' | 'unauthorized' | 'token_required';

/** The two tokens. Unset values (undefined, '' or whitespace-only) are treated as absent. */
export interface TokenConfig {
  readonly fullToken?: string;
  readonly configToken?: string;
}

/** 401 body for a missing or wrong token. */
export const UNAUTHORIZED_BODY: { error: 'unauthorized'; message: string } = Object.freeze({
  error: 'unauthorized' as const,
  message: 'Invalid or missing API token',
});

/** 401 body for a non-loopback caller while no full token is configured. */
export const TOKEN_REQUIRED_BODY: { error: 'token_required'; message: string } = Object.freeze({
  error: 'token_required' as const,
  message: "API token required for non-local requests. Set GENSWARMS_API_TOKEN on the server and send 'Authorization: Bearer <token>'.",
});

function authorizeFull(presented: string | undefined, peer: string | undefined, full: string | undefined): AuthDecision {
  if (full !== undefined) return tokensMatch(presented, full) ? 'ok' : 'unauthorized';
  // F unset: loopback only; a presented token is ignored (there is nothing to compare it with).
  return isLoopback(peer) ? 'ok' : 'token_required';
}

/**
 * docs/security.md decision. full: F set → token must match F (no loopback bypass); F unset → loopback
 * peers only. config: F and C unset → the full rule; otherwise F or C must match, no loopback exemption.
 */
export function authorize(scope: Scope, presented: string | undefined, peer: string | undefined, tokens: TokenConfig): AuthDecision {
  const full = normalizeToken(tokens.fullToken);
  const config = normalizeToken(tokens.configToken);
  switch (scope) {
    case 'full':
      return authorizeFull(presented, peer, full);
    case 'config':
      if (full === undefined && config === undefined) return authorizeFull(presented, peer, full);
      return tokensMatch(presented, full) || tokensMatch(presented, config) ? 'ok' : 'unauthorized';
  }
}

/** `authorize` bound to one TokenConfig. */
export type Authorizer = (scope: Scope, presented: string | undefined, peer: string | undefined) => AuthDecision;

/**
 * The same decisions as `authorize(scope, presented, peer, tokens)`, with the configured tokens normalised and
 * hashed once: each call hashes the presented token at most once and compares it in constant time with
 * `timingSafeEqual` (against F, then C for config scope — both compares always run, so which one matched does not show).
 */
export function createAuthorizer(tokens: TokenConfig): Authorizer {
  const full = tokenDigest(tokens.fullToken);
  const config = tokenDigest(tokens.configToken);
  return (scope, presented, peer) => {
    const fullOnly = scope === 'full' || (full === undefined && config === undefined);
    if (full === undefined && fullOnly) return isLoopback(peer) ? 'ok' : 'token_required';
    const got = presentedDigest(presented);
    const okFull = digestsMatch(got, full);
    if (fullOnly) return okFull ? 'ok' : 'unauthorized';
    const okConfig = digestsMatch(got, config);
    return okFull || okConfig ? 'ok' : 'unauthorized';
  };
}
