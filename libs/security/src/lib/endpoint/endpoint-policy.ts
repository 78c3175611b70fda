import { SecurityError } from '../errors/security-error';

/** docs/security.md: the one endpoint-trust policy (isolation pin and key forwarding agree). */
export interface EndpointPolicy {
  readonly defaultEndpoint?: string;
  readonly serverApiKey?: string;
  readonly allowedHosts: readonly string[];
}

export type KeyDecision =
  { kind: 'agent_key'; key: string } | { kind: 'server_key'; key: string } | { kind: 'withheld' } | { kind: 'none' };

const isSet = (v: string | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/** `new URL(url).hostname` lower-cased (IPv6 stays bracketed); scheme must be http/https. Throws `invalid_endpoint`. */
export function hostOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new SecurityError('invalid_endpoint', 'endpoint is not a valid URL', { cause: err });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new SecurityError('invalid_endpoint', 'endpoint scheme must be http or https');
  }
  if (parsed.hostname === '') throw new SecurityError('invalid_endpoint', 'endpoint has no host');
  return parsed.hostname.toLowerCase();
}

/**
 * Builds the policy from GENSWARMS_LLM_ENDPOINT, GENSWARMS_ALLOWED_ENDPOINTS and GENSWARMS_LLM_API_KEY.
 * An operator endpoint that is not an http(s) URL with a host throws `invalid_llm_endpoint`.
 */
/** `allowedEndpoints` as given: the comma-separated `GENSWARMS_ALLOWED_ENDPOINTS` text or a list of hosts. */
function allowedEntries(raw: unknown): readonly string[] {
  if (raw === undefined) return [];
  if (typeof raw === 'string') return raw.split(',');
  if (Array.isArray(raw) && raw.every((entry) => typeof entry === 'string')) return raw as string[];
  throw new SecurityError('invalid_endpoint', 'allowedEndpoints must be a comma-separated string or an array of host names');
}

export function buildEndpointPolicy(input: {
  llmEndpoint?: string;
  /** Extra allowed hosts: `"a.example,b.example"` (the env form) or `["a.example", "b.example"]`. */
  allowedEndpoints?: string | readonly string[];
  apiKey?: string;
}): EndpointPolicy {
  const hosts = new Set<string>();
  let defaultEndpoint: string | undefined;
  if (isSet(input.llmEndpoint)) {
    defaultEndpoint = input.llmEndpoint.trim();
    try {
      hosts.add(hostOf(defaultEndpoint));
    } catch (err) {
      throw new SecurityError('invalid_llm_endpoint', 'expected an http or https URL with a host', { cause: err });
    }
  }
  for (const entry of allowedEntries(input.allowedEndpoints)) {
    const host = entry.trim().toLowerCase();
    if (host !== '') hosts.add(host);
  }
  return Object.freeze({
    ...(defaultEndpoint !== undefined ? { defaultEndpoint } : {}),
    ...(isSet(input.apiKey) ? { serverApiKey: input.apiKey } : {}),
    allowedHosts: Object.freeze([...hosts]),
  });
}

/** No endpoint → trusted; else its host must equal an allowed host exactly (no wildcard, no subdomain). */
export function isEndpointTrusted(policy: EndpointPolicy, agentEndpoint: string | undefined): boolean {
  if (!isSet(agentEndpoint)) return true;
  let host: string;
  try {
    host = hostOf(agentEndpoint.trim());
  } catch {
    // expected: an unparsable endpoint is not allowed (fail closed)
    return false;
  }
  return policy.allowedHosts.includes(host);
}

/** The agent's endpoint, else the operator default, else none. */
export function effectiveEndpoint(policy: EndpointPolicy, agentEndpoint: string | undefined): string | undefined {
  return isSet(agentEndpoint) ? agentEndpoint.trim() : policy.defaultEndpoint;
}

/**
 * Which key reaches the agent: none for `network: none`; the agent's own `api_key` (operator's explicit
 * choice); else the server key only for a trusted endpoint; `withheld` when a server key exists but the
 * endpoint is untrusted (the caller emits `api_key_withheld`).
 */
export function decideApiKey(policy: EndpointPolicy, agent: { endpoint?: string; apiKey?: string; network: string }): KeyDecision {
  if (agent.network.trim().toLowerCase() === 'none') return { kind: 'none' };
  if (isSet(agent.apiKey)) return { kind: 'agent_key', key: agent.apiKey };
  if (policy.serverApiKey === undefined) return { kind: 'none' };
  return isEndpointTrusted(policy, agent.endpoint) ? { kind: 'server_key', key: policy.serverApiKey } : { kind: 'withheld' };
}
