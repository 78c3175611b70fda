import { validateConfig } from '../../index';
import { parseSshTarget } from './ssh-target';

describe('parseSshTarget', () => {
  test.each([
    ['dev@build-1.example.com', { user: 'dev', host: 'build-1.example.com' }],
    ['root@10.0.0.7', { user: 'root', host: '10.0.0.7' }],
    ['a_b@[::1]', { user: 'a_b', host: '::1' }],
    ['x@[fe80::1:2]', { user: 'x', host: 'fe80::1:2' }],
    ['ci.bot@gpu', { user: 'ci.bot', host: 'gpu' }],
  ])('accepts %s', (text, value) => {
    expect(parseSshTarget(text)).toEqual({ kind: 'ok', value });
  });

  test.each([
    ['no user', 'host.example'],
    ['empty user', '@host'],
    ['two @', 'a@b@c'],
    ['option injection as host', 'u@-oProxyCommand=touch /tmp/x'],
    ['option injection as user', '-oProxyCommand=sh@host'],
    ['bare option', '-oProxyCommand=sh'],
    ['shell: semicolon', 'u@host;id'],
    ['shell: command substitution', 'u@$(id)'],
    ['shell: backticks', 'u@`id`'],
    ['shell: pipe', 'u@h|sh'],
    ['shell: ampersand', 'u@h&&x'],
    ['space', 'u@h x'],
    ['newline', 'u@h\nx'],
    ['NUL', 'u@h\0'],
    ['unbracketed IPv6', 'u@::1'],
    ['IPv4 in brackets', 'u@[10.0.0.1]'],
    ['unclosed bracket', 'u@[::1'],
    ['port in host (goes in opts.port)', 'u@h:22'],
    ['label with leading hyphen', 'u@-h.example'],
    ['dotted digits that are no IPv4', 'u@999.1.1.1'],
    ['too long', `u@${'a'.repeat(300)}`],
    ['slash in user', 'a/b@h'],
    ['not a string', 42],
  ])('refuses %s', (_name, text) => {
    expect(parseSshTarget(text).kind).toBe('invalid');
  });

  test.each([
    ['u@h:2222', { user: 'u', host: 'h', port: 2222 }],
    ['u@[::1]:2222', { user: 'u', host: '::1', port: 2222 }],
  ])('accepts a port where allowed: %s', (text, value) => {
    expect(parseSshTarget(text, { allowPort: true })).toEqual({ kind: 'ok', value });
  });

  test.each(['u@h:0', 'u@h:65536', 'u@h:', 'u@[::1]x', 'u@h:22x'])('refuses a bad port %s', (text) => {
    expect(parseSshTarget(text, { allowPort: true }).kind).toBe('invalid');
  });
});

describe('config validate refuses a hostile ssh host', () => {
  const config = (host: string) => ({ name: 's', agents: [{ name: 'a', backend: { type: 'ssh', host } }] });
  test.each(['u@h;reboot', 'u@-oProxyCommand=sh', 'u@$(id)', 'u@h x'])('%s', (host) => {
    const r = validateConfig(config(host));
    expect(r.kind).toBe('invalid');
  });
  it('accepts a plain user@host', () => {
    expect(validateConfig(config('dev@box.example')).kind).toBe('ok');
  });
});
