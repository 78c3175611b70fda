import type { RunnerContext } from '../port';
import { checkStoredPin, parsePin } from './egress-pin';

function ctxWith(llm: RunnerContext['llm']): RunnerContext {
  return { home: '/nonexistent', serverUid: 0, serverGid: 0, binaries: { node: '/usr/bin/node' }, agentEntry: '/nonexistent/main.js', llm };
}

const trusted = ctxWith({ defaultEndpoint: 'https://llm.example/v1', allowedHosts: ['llm.example', '10.0.0.5', '[::1]'] });

describe('a stored isolated pin is re-validated against the current policy', () => {
  test.each([
    [{ host: 'llm.example', port: 443, tls: true }],
    [{ host: 'llm.example', port: 8443, tls: false }],
    [{ host: '10.0.0.5', port: 80, tls: false }],
    [{ host: '[::1]', port: 11434, tls: false }],
  ])('accepts %j and plans exactly that target', (pin) => {
    const check = checkStoredPin(pin, trusted);
    expect(check).toMatchObject({ kind: 'ok', pin, target: { host: pin.host, port: pin.port, tls: pin.tls } });
  });

  it('refuses a missing pin', () => {
    expect(checkStoredPin(undefined, trusted)).toEqual({ kind: 'refused', reason: 'egress_pin_missing' });
  });

  it('refuses a pin whose host is no longer allowlisted', () => {
    const pin = { host: 'llm.example', port: 443, tls: true };
    expect(checkStoredPin(pin, ctxWith({ allowedHosts: ['other.example'] }))).toEqual({ kind: 'refused', reason: 'egress_pin_untrusted' });
    expect(checkStoredPin(pin, ctxWith({ allowedHosts: [] }))).toEqual({ kind: 'refused', reason: 'egress_pin_untrusted' });
  });

  const good = { host: 'llm.example', port: 443, tls: true };
  test.each<[string, unknown]>([
    ['null', null],
    ['a string', 'https://llm.example/v1'],
    ['an array', ['llm.example', 443, true]],
    ['shell metacharacters', { ...good, host: 'llm.example;id' }],
    ['$(...)', { ...good, host: '$(id)' }],
    ['socat option syntax', { ...good, host: 'llm.example,fork' }],
    ['a second socat address', { ...good, host: 'llm.example!!TCP:evil.example' }],
    ['a colon (port smuggling)', { ...good, host: 'llm.example:22' }],
    ['userinfo/path', { ...good, host: 'evil.example/x@llm.example' }],
    ['upper case (not as planned)', { ...good, host: 'LLM.example' }],
    ['a space', { ...good, host: 'llm.example x' }],
    ['a NUL', { ...good, host: 'llm.example\0' }],
    ['a newline', { ...good, host: 'llm.example\n' }],
    ['an empty host', { ...good, host: '' }],
    ['an oversize host', { ...good, host: `${'a'.repeat(60)}.`.repeat(6) }],
    ['port 0', { ...good, port: 0 }],
    ['port 65536', { ...good, port: 65536 }],
    ['port 70000', { ...good, port: 70000 }],
    ['port -1', { ...good, port: -1 }],
    ['port 1.5', { ...good, port: 1.5 }],
    ['port NaN', { ...good, port: NaN }],
    ['port Infinity', { ...good, port: Infinity }],
    ['port as a string', { ...good, port: '443' }],
    ['tls as a string', { ...good, tls: 'true' }],
    ['a missing key', { host: 'llm.example', port: 443 }],
    ['an extra key', { ...good, url: 'https://evil.example' }],
    ['an own __proto__ key', JSON.parse('{"host":"llm.example","port":443,"tls":true,"__proto__":{"polluted":true}}')],
    ['a non-plain prototype', Object.assign(Object.create({ inherited: true }) as object, good)],
  ])('refuses a hostile pin (%s) as malformed', (_name, pin) => {
    expect(checkStoredPin(pin, trusted)).toEqual({ kind: 'refused', reason: 'egress_pin_malformed' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('parsePin returns a fresh object with exactly host, port and tls', () => {
    const raw = { host: 'llm.example', port: 443, tls: true };
    const parsed = parsePin(raw);
    expect(parsed).toEqual(raw);
    expect(parsed).not.toBe(raw);
  });
});
