import { SecurityError } from '../errors/security-error';
import { compileRouteScope } from './route-scope';

/** The server's two config-scope routes (its operation table declares them; docs/security.md). */
const scopeOf = compileRouteScope([
  { method: 'PATCH', path: '/api/swarms/:s/objects/:o/config' },
  { method: 'GET', path: '/api/swarms/:s/overlay' },
]);

describe('compileRouteScope', () => {
  test.each([
    ['PATCH', '/api/swarms/s/objects/o/config', 'config'],
    ['GET', '/api/swarms/s/overlay', 'config'],
    ['GET', '/api/swarms/s/overlay?x=1', 'config'],
    ['GET', '/api/swarms/%2e%2e/overlay', 'config'],
    ['DELETE', '/api/swarms/s/overlay', 'full'],
    ['HEAD', '/api/swarms/s/overlay', 'full'],
    ['get', '/api/swarms/s/overlay', 'full'],
    ['GET', '/api/swarms/s/overlay/', 'full'],
    ['GET', '/api/swarms//overlay', 'full'],
    ['GET', '/API/swarms/s/overlay', 'full'],
    ['GET', 'api/swarms/s/overlay', 'full'],
    ['GET', '//api/swarms/s/overlay', 'full'],
    ['GET', '/api/swarms/s/overlay\0', 'full'],
    ['GET', '/api/swarms/s/objects/o/config', 'full'],
    ['PATCH', '/api/swarms/s/objects/o/config/x', 'full'],
    ['PATCH', '/api/swarms/s/x/objects/o/config', 'full'],
    ['PATCH', '/api/swarms/s/objects//config', 'full'],
    ['POST', '/api/swarms', 'full'],
    ['GET', '/nope', 'full'],
    ['GET', '/', 'full'],
    ['GET', '', 'full'],
  ])('%s %j is %s scope', (method, path, scope) => {
    expect(scopeOf(method, path)).toBe(scope);
  });

  it('is full scope for everything when no route is config', () => {
    expect(compileRouteScope([])('GET', '/api/swarms/s/overlay')).toBe('full');
  });

  test.each([
    ['get', '/api/swarms/:s/overlay'],
    ['GET', 'api/swarms/:s/overlay'],
    ['GET', '/api/swarms/:s/overlay/'],
    ['GET', '/api//overlay'],
    ['GET', '/api/*/overlay'],
    ['GET', '/api/(.*)/overlay'],
    ['GET', '/api/swarms/:/overlay'],
    ['GET', '/api/swarms/:s?/overlay'],
    ['GET', ''],
    ['', '/api/swarms/:s/overlay'],
  ])('refuses the template %s %j (invalid_route_template)', (method, path) => {
    let thrown: unknown;
    try {
      compileRouteScope([{ method, path }]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SecurityError);
    expect(thrown).toMatchObject({ code: 'invalid_route_template' });
  });
});
