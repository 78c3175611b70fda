import { checkConfinedPath, isInsideBase } from './confine';

const BASE = '/srv/allowed';

describe('checkConfinedPath (pure steps 1–3)', () => {
  test.each<[unknown, string]>([
    ['', 'invalid_config_path'],
    [undefined, 'invalid_config_path'],
    [null, 'invalid_config_path'],
    [42, 'invalid_config_path'],
    [['x.json'], 'invalid_config_path'],
    [{ path: 'x.json' }, 'invalid_config_path'],
    ['x\0.json', 'invalid_config_path'],
    ['x.json\0', 'invalid_config_path'],
    ['~/x.json', 'invalid_config_path'],
    ['~root/x.json', 'invalid_config_path'],
    ['/etc/passwd', 'invalid_config_path'],
    ['../../etc/passwd', 'invalid_config_path'],
    ['../allowed-sibling/x.json', 'invalid_config_path'],
    ['/srv/allowed_evil/x.json', 'invalid_config_path'],
    ['../allowed_evil/x.json', 'invalid_config_path'],
    ['sub/../../x.json', 'invalid_config_path'],
    ['/srv/x.json', 'invalid_config_path'],
    ['x.txt', 'unsupported_format'],
    ['x.js', 'unsupported_format'],
    ['x.json.sh', 'unsupported_format'],
    ['x', 'unsupported_format'],
    ['.', 'unsupported_format'],
    ['sub/..', 'unsupported_format'],
  ])('refuses %j with %s', (input, code) => {
    const r = checkConfinedPath(BASE, input);
    expect(r.kind).toBe('refused');
    if (r.kind === 'refused') {
      expect(r.code).toBe(code);
      expect(r.message).not.toContain('/srv');
    }
  });

  test.each<[string, string, 'json' | 'yaml']>([
    ['x.json', '/srv/allowed/x.json', 'json'],
    ['sub/x.yaml', '/srv/allowed/sub/x.yaml', 'yaml'],
    ['X.YML', '/srv/allowed/X.YML', 'yaml'],
    ['./a/../b.JSON', '/srv/allowed/b.JSON', 'json'],
    ['/srv/allowed/abs.json', '/srv/allowed/abs.json', 'json'],
    ['..x.json', '/srv/allowed/..x.json', 'json'],
  ])('accepts %j as %s', (input, candidate, format) => {
    expect(checkConfinedPath(BASE, input)).toEqual({ kind: 'ok', candidate, format });
  });

  it('treats every absolute path as inside when the base is /', () => {
    expect(checkConfinedPath('/', '/etc/x.json')).toEqual({ kind: 'ok', candidate: '/etc/x.json', format: 'json' });
  });
});

describe('isInsideBase', () => {
  test.each<[string, string, boolean]>([
    ['/srv/allowed', '/srv/allowed', true],
    ['/srv/allowed', '/srv/allowed/x', true],
    ['/srv/allowed/', '/srv/allowed/x', true],
    ['/srv/allowed', '/srv/allowed_evil/x', false],
    ['/srv/allowed', '/srv', false],
    ['/', '/anything', true],
  ])('isInsideBase(%s, %s) is %s', (base, p, want) => {
    expect(isInsideBase(base, p)).toBe(want);
  });
});
