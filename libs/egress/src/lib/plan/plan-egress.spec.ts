import type { EndpointPolicy } from '@genswarms/security';
import { buildEndpointPolicy } from '@genswarms/security';
import { EgressError } from '../errors/egress-error';
import { planEgress } from './plan-egress';
import { sandboxEndpoint } from './target';
import { refusal } from '@genswarms/test-kit';

const policy = (llmEndpoint: string | undefined, allowed = ''): EndpointPolicy =>
  buildEndpointPolicy({ llmEndpoint, allowedEndpoints: allowed });

describe('planEgress', () => {
  test.each([
    [
      'http://llm.internal:8080/v1?x=1',
      { host: 'llm.internal', port: 8080, tls: false, pathAndQuery: '/v1?x=1', upstreamHost: 'llm.internal:8080' },
    ],
    ['https://API.Example.com/v1', { host: 'api.example.com', port: 443, tls: true, pathAndQuery: '/v1', upstreamHost: 'api.example.com' }],
    ['http://127.0.0.1', { host: '127.0.0.1', port: 80, tls: false, pathAndQuery: '', upstreamHost: '127.0.0.1' }],
    ['https://h.example:443/', { host: 'h.example', port: 443, tls: true, pathAndQuery: '', upstreamHost: 'h.example' }],
    ['https://h.example:80/', { host: 'h.example', port: 80, tls: true, pathAndQuery: '', upstreamHost: 'h.example:80' }],
    ['http://[::1]:9000/p', { host: '[::1]', port: 9000, tls: false, pathAndQuery: '/p', upstreamHost: '[::1]:9000' }],
    ['http://user:pw@h.example/p#frag', { host: 'h.example', port: 80, tls: false, pathAndQuery: '/p', upstreamHost: 'h.example' }],
  ])('pins the operator default endpoint %s', (endpoint, expected) => {
    expect(planEgress({ policy: policy(endpoint) })).toEqual(expected);
  });

  it('pins an allowed agent endpoint instead of the default', () => {
    const t = planEgress({ agentEndpoint: 'https://other.example/v2', policy: policy('http://llm.local', 'other.example') });
    expect(t).toEqual({ host: 'other.example', port: 443, tls: true, pathAndQuery: '/v2', upstreamHost: 'other.example' });
    expect(sandboxEndpoint(t)).toBe('http://127.0.0.1:17080/v2');
  });

  test.each([
    ['https://evil.example/v1', 'evil.example'],
    ['https://api.llm.example/', 'api.llm.example'], // no subdomain match
    ['https://llm.example.evil.com/', 'llm.example.evil.com'],
  ])('refuses the untrusted agent endpoint %s with the host only', (agentEndpoint, host) => {
    const err = refusal(EgressError, () => planEgress({ agentEndpoint, policy: policy('http://llm.example', 'llm.example') }));
    expect(err.code).toBe('endpoint_not_allowed');
    expect(err.endpoint).toBe(host);
  });

  it('never echoes an unparsable endpoint', () => {
    const err = refusal(EgressError, () => planEgress({ agentEndpoint: 'not a url sk-secret', policy: policy('http://llm.example') }));
    expect(err.code).toBe('endpoint_not_allowed');
    expect(err.endpoint).toBeUndefined();
    expect(err.message).not.toContain('sk-secret');
  });

  it('refuses an isolated agent when no endpoint exists at all', () => {
    expect(refusal(EgressError, () => planEgress({ policy: policy(undefined) })).code).toBe('endpoint_not_configured');
  });

  test.each([
    ['a,fork!!exec:/bin/sh', 'http://a,fork!!exec:/bin/sh/'],
    ['a,b', 'http://a%2Cb/'],
    ['a!b$c&d(e)*+;=', 'http://a!b$c&d(e)*+;=/'],
    ["it's", "http://it's/"],
    ['a~b', 'http://a~b/'],
  ])('refuses the allowlisted but socat-hostile host %s', (allowed, endpoint) => {
    const err = refusal(EgressError, () => planEgress({ agentEndpoint: endpoint, policy: { allowedHosts: [allowed] } }));
    expect(err.code).toBe('endpoint_not_allowed');
  });

  it('accepts a unicode host in its punycode form', () => {
    const t = planEgress({ agentEndpoint: 'http://bücher.example/', policy: { allowedHosts: ['xn--bcher-kva.example'] } });
    expect(t.host).toBe('xn--bcher-kva.example');
  });
});
