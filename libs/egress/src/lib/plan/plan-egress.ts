import type { EndpointPolicy } from '@genswarms/security';
import { effectiveEndpoint, hostOf, isEndpointTrusted } from '@genswarms/security';
import { EgressError } from '../errors/egress-error';
import { assertSafeTarget } from './host-syntax';
import type { EgressTarget } from './target';

const DEFAULT_PORTS: Readonly<Record<'http:' | 'https:', number>> = { 'http:': 80, 'https:': 443 };

/** Best-effort host of an untrusted endpoint for error bodies; undefined when it is not a URL. */
function safeHostOf(url: string): string | undefined {
  try {
    return hostOf(url);
  } catch {
    return undefined; // expected: an unparsable endpoint is reported without any of its text
  }
}

/**
 * docs/security.md#11-network-isolation-and-egress: the forwarder destination for an isolated agent. Pure. Refuses an untrusted agent
 * endpoint (`endpoint_not_allowed`, `.endpoint` = host only) and a missing one (`endpoint_not_configured`).
 */
export function planEgress(input: { agentEndpoint?: string; policy: EndpointPolicy }): EgressTarget {
  const { agentEndpoint, policy } = input;
  if (agentEndpoint !== undefined && !isEndpointTrusted(policy, agentEndpoint)) {
    throw new EgressError('endpoint_not_allowed', 'the agent endpoint host is not in the allowed endpoints', {
      endpoint: safeHostOf(agentEndpoint),
    });
  }
  const effective = effectiveEndpoint(policy, agentEndpoint);
  if (effective === undefined) {
    throw new EgressError('endpoint_not_configured', 'an isolated agent needs an LLM endpoint (agent endpoint or GENSWARMS_LLM_ENDPOINT)');
  }
  return targetFromUrl(effective);
}

function targetFromUrl(endpoint: string): EgressTarget {
  let url: URL;
  let host: string;
  try {
    url = new URL(endpoint);
    host = hostOf(endpoint);
  } catch (cause) {
    throw new EgressError('endpoint_not_allowed', 'the effective endpoint is not an http(s) URL', {
      cause,
      endpoint: safeHostOf(endpoint),
    });
  }
  const scheme = url.protocol;
  if (scheme !== 'http:' && scheme !== 'https:') {
    throw new EgressError('endpoint_not_allowed', 'the effective endpoint is not an http(s) URL', { endpoint: host });
  }
  const defaultPort = DEFAULT_PORTS[scheme];
  const port = url.port === '' ? defaultPort : Number(url.port);
  assertSafeTarget(host, port);
  const path = url.pathname === '/' ? '' : url.pathname;
  return {
    host,
    port,
    tls: scheme === 'https:',
    pathAndQuery: path + url.search,
    upstreamHost: port === defaultPort ? host : `${host}:${port}`,
  };
}
