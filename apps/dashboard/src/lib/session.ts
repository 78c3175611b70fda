/**
 * The API token lives in `sessionStorage` only: never localStorage, a cookie or a URL, so it ends with the
 * tab and is never sent by the browser on its own (no ambient credential, so no CSRF).
 */
const TOKEN_KEY = 'genswarms.token';

/** The stored token; `''` = log in without one (a token-less loopback server); `undefined` = not logged in. */
export function readToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
}

export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
