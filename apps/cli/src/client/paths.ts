/** `/api/<seg>/<seg>…` with every segment percent-encoded (names are the server's to validate). */
export function apiPath(...segments: readonly string[]): string {
  return `/api/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}

/** Appends a query string built from the defined entries only. */
export function withQuery(path: string, query: Readonly<Record<string, string | number | boolean | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}
