/** The replacement for every redacted value. */
export const REDACTED = '[REDACTED]';

const SECRET_PARTS = ['token', 'secret', 'password', 'passwd', 'credential'] as const;

/** How many key names `isSecretKey` remembers, and the longest it remembers (the API's own keys are a few dozen
 * short names; hostile input cannot grow the memo past this). */
const SECRET_KEY_MEMO_MAX = 4096;
const SECRET_KEY_MEMO_MAX_LENGTH = 64;
const secretKeyMemo = new Map<string, boolean>();

function isSecretName(key: string): boolean {
  const lower = key.toLowerCase();
  return lower === 'api_key' || lower === 'apikey' || SECRET_PARTS.some((part) => lower.includes(part));
}

/** docs/rest-api.md: `api_key`/`apikey`, or a name containing token/secret/password/passwd/credential (over-matching accepted). */
export function isSecretKey(key: string): boolean {
  const known = secretKeyMemo.get(key);
  if (known !== undefined) return known;
  const secret = isSecretName(key);
  if (secretKeyMemo.size < SECRET_KEY_MEMO_MAX && key.length <= SECRET_KEY_MEMO_MAX_LENGTH) secretKeyMemo.set(key, secret);
  return secret;
}

/**
 * A token *count* (`prompt_tokens: 12`, `max_tokens: 4096`): a `*_tokens` key holding a non-negative safe
 * integer. It names no credential and carries none (a number), so it is shown; any other value there is redacted.
 */
function isTokenCount(key: string, value: unknown): boolean {
  return key.toLowerCase().endsWith('_tokens') && typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty: a JSON key "__proto__" stays a plain own property instead of swapping the prototype. Any
  // other key of a fresh object literal becomes the same own property by assignment, which is far cheaper (every
  // `GET /api/swarms` redacts its list).
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function redactAllValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(() => REDACTED);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, REDACTED);
    return out;
  }
  return REDACTED;
}

/** The objects on the path from the root to the node being copied (a stack: the depth is small, a lookup is a short scan). */
type Ancestors = object[];

function redactNode(value: unknown, ancestors: Ancestors): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (ancestors.includes(value)) return REDACTED; // a cycle cannot be serialised anyway
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactNode(item, ancestors));
    const src = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(src)) {
      const child = src[key];
      if (isSecretKey(key) && !isTokenCount(key, child)) setOwn(out, key, REDACTED);
      else if (key === 'config' && child !== null && typeof child === 'object' && !Array.isArray(child)) {
        setOwn(out, key, redactConfig(child as Record<string, unknown>, ancestors));
      } else setOwn(out, key, redactNode(child, ancestors));
    }
    return out;
  } finally {
    ancestors.pop();
  }
}

function redactConfig(config: Record<string, unknown>, ancestors: Ancestors): unknown {
  const copy = redactNode(config, ancestors) as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(config, 'env')) setOwn(copy, 'env', redactAllValues(config['env']));
  return copy;
}

/**
 * Deep copy with secrets replaced by "[REDACTED]": secret-named keys at any depth and every value under
 * `config.env`. Safe for status, overlay, event and snapshot outputs.
 */
export function redactSecrets<T>(value: T): T {
  return redactNode(value, []) as T;
}

/** Redacts secret-named query parameters (e.g. `token=...` → `token=[REDACTED]`) in a URL or path for logging. */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const q = beforeHash.indexOf('?');
  if (q === -1) return url;
  const params = beforeHash
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      return isSecretKey(safeDecode(rawName)) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${beforeHash.slice(0, q)}?${params.join('&')}${fragment}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    // expected: a malformed %-escape is matched as written
    return s;
  }
}
