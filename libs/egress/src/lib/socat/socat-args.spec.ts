import { EgressError } from '../errors/egress-error';
import type { EgressTarget } from '../plan/target';
import { buildHostSocatArgs } from './socat-args';
import { codeOf } from '@genswarms/test-kit';

const target = (host: string, port = 80, tls = false): EgressTarget => ({ host, port, tls, pathAndQuery: '', upstreamHost: host });

describe('buildHostSocatArgs', () => {
  it('builds the plain TCP forwarder tuple', () => {
    expect(buildHostSocatArgs('/h/egress/s/a/llm.sock', target('llm.example', 8080))).toEqual([
      'UNIX-LISTEN:/h/egress/s/a/llm.sock,fork,mode=0600,unlink-early',
      'TCP:llm.example:8080',
    ]);
  });

  it('builds the verifying OPENSSL forwarder tuple for https', () => {
    expect(buildHostSocatArgs('/h/llm.sock', target('api.example.com', 443, true))).toEqual([
      'UNIX-LISTEN:/h/llm.sock,fork,mode=0600,unlink-early',
      'OPENSSL:api.example.com:443,verify=1',
    ]);
  });

  it('hands the socket to the agent identity when a root server names one (user=/group=, still 0600)', () => {
    expect(buildHostSocatArgs('/h/llm.sock', target('llm.example', 8080), { uid: 65532, gid: 65533 })[0]).toBe(
      'UNIX-LISTEN:/h/llm.sock,fork,mode=0600,user=65532,group=65533,unlink-early',
    );
  });

  test.each([
    { uid: 0, gid: 5 },
    { uid: 5, gid: 0 },
    { uid: -1, gid: 5 },
    { uid: 1.5, gid: 5 },
    { uid: 2147483648, gid: 5 },
    { uid: Number.NaN, gid: 5 },
  ])('refuses the socket client %j (never root, never out of range)', (client) => {
    expect(codeOf(EgressError, () => buildHostSocatArgs('/h/llm.sock', target('llm.example'), client))).toBe('egress_unavailable');
  });

  it('keeps IPv6 literals bracketed', () => {
    expect(buildHostSocatArgs('/h/llm.sock', target('[fd00::1]', 8443))[1]).toBe('TCP:[fd00::1]:8443');
  });

  test.each([
    'a,fork',
    'a!!exec:sh',
    'a b',
    'a:1',
    "a'b",
    'a"b',
    'a\nb',
    'a\0b',
    'ä.example',
    '',
    '[::1',
    '[::1],x',
    'exec:/bin/sh',
    '__proto__,x',
    '*',
    '..,/',
  ])('refuses the hostile host %j', (host) => {
    expect(codeOf(EgressError, () => buildHostSocatArgs('/h/llm.sock', target(host)))).toBe('endpoint_not_allowed');
  });

  test.each([0, -1, 65536, 1.5, Number.NaN])('refuses port %p', (port) => {
    expect(codeOf(EgressError, () => buildHostSocatArgs('/h/llm.sock', target('h.example', port)))).toBe('endpoint_not_allowed');
  });

  test.each([
    'relative/llm.sock',
    '/h,fork/llm.sock',
    '/h!!x/llm.sock',
    '/h:x/llm.sock',
    '/h x/llm.sock',
    '/h/../llm.sock',
    '/h\0/llm.sock',
    `/${'a'.repeat(120)}/llm.sock`,
  ])('refuses the socket path %j', (sock) => {
    expect(codeOf(EgressError, () => buildHostSocatArgs(sock, target('h.example')))).toBe('egress_unavailable');
  });

  it('produces exactly two argv words for every accepted input', () => {
    for (const host of ['a.b', '10.0.0.1', '[::1]', 'xn--bcher-kva.example', 'under_score.example']) {
      const args = buildHostSocatArgs('/h/llm.sock', target(host, 1234, host.length % 2 === 0));
      expect(args).toHaveLength(2);
      for (const word of args) expect(word).not.toMatch(/!!|\s/);
    }
  });
});
