/**
 * @genswarms/security: token gate, scopes, loopback test, bearer parsing, CORS policy, bind address,
 * config-path confinement, endpoint trust and secret redaction. Pure; imports no other lib.
 */
export { SecurityError } from './lib/errors/security-error';
export type { SecurityErrorCode } from './lib/errors/security-error';

export { normalizeToken, tokensMatch } from './lib/auth/token';
export { parseBearer } from './lib/auth/bearer';
export { isLoopback } from './lib/auth/loopback';
export { authorize, createAuthorizer, UNAUTHORIZED_BODY, TOKEN_REQUIRED_BODY } from './lib/auth/authorize';
export type { Scope, AuthDecision, Authorizer, TokenConfig } from './lib/auth/authorize';
export { compileRouteScope } from './lib/auth/route-scope';
export type { ConfigRoute, RouteScope } from './lib/auth/route-scope';

export { parseCorsOrigins, isOriginAllowed, corsHeadersFor, preflightHeaders } from './lib/cors/cors-policy';
export type { CorsPolicy } from './lib/cors/cors-policy';

export { parseBindAddress, parsePort, isHostHeaderAllowed, DEFAULT_BIND_ADDRESS, DEFAULT_PORT } from './lib/bind/bind-address';

export { checkConfinedPath, isInsideBase, CONFIG_MAX_BYTES } from './lib/config-path/confine';
export type { ConfinedCheck, ConfigFormat } from './lib/config-path/confine';
export { readConfinedConfig } from './lib/config-path/read-confined';
export type { ConfinedRead } from './lib/config-path/read-confined';
export { resolveConfigDir } from './lib/config-path/config-dir';

export { buildEndpointPolicy, hostOf, isEndpointTrusted, effectiveEndpoint, decideApiKey } from './lib/endpoint/endpoint-policy';
export type { EndpointPolicy, KeyDecision } from './lib/endpoint/endpoint-policy';

export { redactSecrets, isSecretKey, redactUrl, REDACTED } from './lib/redact/redact';
