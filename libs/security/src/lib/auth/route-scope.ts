import { SecurityError } from '../errors/security-error';
import type { Scope } from './authorize';

/** A route of the config scope: an upper-case method and an express path template (`/api/swarms/:s/overlay`). */
export interface ConfigRoute {
  readonly method: string;
  readonly path: string;
}

/** The scope of a request's method and raw path (the query string, if any, is ignored). */
export type RouteScope = (method: string, path: string) => Scope;

const METHOD_RE = /^[A-Z]+$/;
const LITERAL_RE = /^[A-Za-z0-9._~-]+$/;
const PARAM_RE = /^:[A-Za-z_]+$/;

/** A template's segments, `null` standing for a parameter (any one non-empty segment). */
function segmentsOf(route: ConfigRoute): ReadonlyArray<string | null> {
  const parts = route.path.split('/');
  const ok = METHOD_RE.test(route.method) && parts[0] === '' && parts.length > 1;
  const rest = parts.slice(1);
  if (!ok || !rest.every((s) => LITERAL_RE.test(s) || PARAM_RE.test(s)))
    throw new SecurityError(
      'invalid_route_template',
      'A config-scope route must be an upper-case method and a /-separated template of literal and :param segments',
    );
  return rest.map((s) => (s.startsWith(':') ? null : s));
}

function matches(template: ReadonlyArray<string | null>, parts: readonly string[]): boolean {
  if (parts[0] !== '' || parts.length !== template.length + 1) return false;
  return template.every((want, i) => {
    const got = parts[i + 1] ?? '';
    return want === null ? got !== '' : got === want;
  });
}

/**
 * The scope of a request, from the routes the server declares `config` (its operation table): `config`
 * for exactly those, the method and every literal segment compared exactly (case-sensitive) and a
 * `:param` being one non-empty segment; every other method + path (unknown routes, HEAD, trailing
 * slashes, empty segments, other spellings) is `full`, so any mismatch errs on the strict side.
 * A template off that grammar throws `invalid_route_template` when compiled, not per request.
 */
export function compileRouteScope(configRoutes: readonly ConfigRoute[]): RouteScope {
  const compiled = configRoutes.map((r) => ({ method: r.method, segments: segmentsOf(r) }));
  return (method, path) => {
    const q = path.indexOf('?');
    const bare = q === -1 ? path : path.slice(0, q);
    let parts: string[] | undefined; // split once, and only when a config route of this method exists
    return compiled.some((r) => r.method === method && matches(r.segments, (parts ??= bare.split('/')))) ? 'config' : 'full';
  };
}
