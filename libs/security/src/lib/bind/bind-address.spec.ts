import { SecurityError } from '../errors/security-error';
import { isHostHeaderAllowed, parseBindAddress, parsePort } from './bind-address';
import { codeOf } from '@genswarms/test-kit';

describe('parseBindAddress', () => {
  test.each<[string | undefined, string]>([
    [undefined, '127.0.0.1'],
    ['', '127.0.0.1'],
    ['   ', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['192.168.1.5', '192.168.1.5'],
    ['::', '::'],
    ['::1', '::1'],
    ['  0.0.0.0  ', '0.0.0.0'],
    ['fd00::1', 'fd00::1'],
  ])('%j → %j', (raw, want) => {
    expect(parseBindAddress(raw)).toBe(want);
  });

  test.each(['not-an-ip', '999.999.999.999', '0.0.0.0:4000', '[::1]', '127.1', 'localhost', 'fe80::1%eth0', '1.2.3.4 5.6.7.8', '::1\n::2'])(
    'refuses %j with invalid_bind_address (no silent fallback)',
    (raw) => {
      expect(codeOf(SecurityError, () => parseBindAddress(raw))).toBe('invalid_bind_address');
    },
  );

  it('quotes the trimmed value in the message', () => {
    expect(() => parseBindAddress(' not-an-ip ')).toThrow('"not-an-ip": expected an IPv4 or IPv6 address');
  });
});

describe('parsePort', () => {
  test.each<[string | undefined, number]>([
    [undefined, 4000],
    ['', 4000],
    ['  ', 4000],
    ['1', 1],
    ['4000', 4000],
    ['65535', 65535],
    ['08080', 8080],
    [' 5000 ', 5000],
  ])('%j → %d', (raw, want) => {
    expect(parsePort(raw)).toBe(want);
  });

  it('uses the given fallback when unset', () => {
    expect(parsePort(undefined, 1234)).toBe(1234);
  });

  test.each(['0', '65536', '-1', '+80', '80.0', '1e3', '0x50', 'abc', '4000abc', '99999999999999999999', '80 80', '٣٠٠٠'])(
    'refuses %j with invalid_port',
    (raw) => {
      expect(codeOf(SecurityError, () => parsePort(raw))).toBe('invalid_port');
    },
  );
});

describe('isHostHeaderAllowed', () => {
  test.each<[string | undefined, string, boolean]>([
    ['localhost', '127.0.0.1', true],
    ['localhost:4000', '127.0.0.1', true],
    ['LOCALHOST:4000', '127.0.0.1', true],
    ['127.0.0.1:4000', '127.0.0.1', true],
    ['127.9.9.9', '127.0.0.1', true],
    ['[::1]:4000', '127.0.0.1', true],
    ['[::1]', '::1', true],
    ['192.168.1.5:4000', '192.168.1.5', true],
    ['[fd00::1]:4000', 'fd00:0::1', true],
    ['0.0.0.0:4000', '0.0.0.0', true],
    ['evil.com', '127.0.0.1', false],
    ['evil.com:4000', '127.0.0.1', false],
    ['localhost.evil.com', '127.0.0.1', false],
    ['127.0.0.1.nip.io', '127.0.0.1', false],
    ['192.168.1.6:4000', '192.168.1.5', false],
    ['::1', '127.0.0.1', false],
    ['localhost:abc', '127.0.0.1', false],
    ['localhost:4000:1', '127.0.0.1', false],
    ['[localhost]:4000', '127.0.0.1', false],
    ['', '127.0.0.1', false],
    [undefined, '127.0.0.1', false],
  ])('Host %j with bind %s → %s', (host, bind, want) => {
    expect(isHostHeaderAllowed(host, bind)).toBe(want);
  });
});
