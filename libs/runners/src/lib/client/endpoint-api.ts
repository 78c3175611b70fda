/**
 * What an LLM endpoint speaks (docs/clients.md "Endpoint compatibility"): each coding client speaks exactly
 * one wire protocol, and an operator declares which ones an endpoint offers — the server's default endpoint
 * through `GENSWARMS_LLM_ENDPOINT_API`, an agent's own `endpoint` through its `endpoint_api`.
 */

/** The wire protocols genswarms knows: OpenAI Responses (Codex), OpenAI Chat Completions (OpenCode, genswarms-agent), Anthropic Messages (Claude Code). */
export type EndpointApi = 'openai-responses' | 'openai-chat' | 'anthropic-messages';

/** Every EndpointApi, in documentation order. */
export const ENDPOINT_APIS: readonly EndpointApi[] = ['openai-responses', 'openai-chat', 'anthropic-messages'];

/** Hosts whose protocols are known without a declaration (exact host match, lower case). */
const KNOWN_HOST_APIS: ReadonlyMap<string, readonly EndpointApi[]> = new Map<string, readonly EndpointApi[]>([
  ['api.openai.com', ['openai-responses', 'openai-chat']],
  ['api.anthropic.com', ['anthropic-messages']],
]);

/** What an undeclared endpoint on any other host is taken to speak: the protocol genswarms-agent has always used. */
export const DEFAULT_ENDPOINT_APIS: readonly EndpointApi[] = ['openai-chat'];

export function isEndpointApi(value: unknown): value is EndpointApi {
  return typeof value === 'string' && (ENDPOINT_APIS as readonly string[]).includes(value);
}

/** Result of reading a declaration; `reason` never echoes the input beyond a bounded, quoted word. */
export type EndpointApiParse = { kind: 'ok'; apis: readonly EndpointApi[] } | { kind: 'invalid'; reason: string };

/**
 * Parses a comma list (`GENSWARMS_LLM_ENDPOINT_API`): trimmed words, each an EndpointApi, at least one,
 * duplicates dropped, order kept.
 */
export function parseEndpointApiList(raw: string): EndpointApiParse {
  const words = raw.split(',').map((w) => w.trim());
  if (words.every((w) => w === '')) return { kind: 'invalid', reason: `expected a comma list of ${ENDPOINT_APIS.join(', ')}` };
  const apis: EndpointApi[] = [];
  for (const word of words) {
    if (!isEndpointApi(word)) {
      return { kind: 'invalid', reason: `${JSON.stringify(word.slice(0, 40))} is not one of ${ENDPOINT_APIS.join(', ')}` };
    }
    if (!apis.includes(word)) apis.push(word);
  }
  return { kind: 'ok', apis };
}

/** An undeclared endpoint: the known vendor hosts, else DEFAULT_ENDPOINT_APIS. An unparsable URL gets the default. */
export function inferEndpointApis(endpoint: string): readonly EndpointApi[] {
  let host = '';
  try {
    host = new URL(endpoint).hostname.toLowerCase();
  } catch {
    // expected: the endpoint was validated elsewhere; an unparsable one speaks nothing we can tell
  }
  return KNOWN_HOST_APIS.get(host) ?? DEFAULT_ENDPOINT_APIS;
}
