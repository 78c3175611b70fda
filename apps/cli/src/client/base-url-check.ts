/**
 * A server base URL as the CLI accepts it: http/https with a host, no credentials, query or fragment;
 * one trailing `/` removed. undefined when not acceptable (the caller says which source was wrong).
 */
export function checkBaseUrl(raw: string): string | undefined {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // expected: not a URL is reported by the caller, with its source
    return undefined;
  }
  const bad =
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.hostname === '' ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '';
  if (bad) return undefined;
  return value.endsWith('/') ? value.slice(0, -1) : value;
}
