/**
 * The chat-completions URL for an OpenAI-compatible endpoint (query kept):
 * - path ends with `/chat/completions` → used as is;
 * - path empty or `/` → `/v1/chat/completions` (e.g. the isolated forwarder `http://127.0.0.1:17080`);
 * - any other path (`…/v1`, `…/openai/v1/`, a proxy prefix) → that path + `/chat/completions`.
 */
export function chatCompletionsUrl(endpoint: string): URL {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) url.pathname = path;
  else if (path === '') url.pathname = '/v1/chat/completions';
  else url.pathname = `${path}/chat/completions`;
  return url;
}
