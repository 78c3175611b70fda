/**
 * A generated input as JSON, so a shrunk failing case can be saved as a regression fixture and replayed:
 * JSON itself plus tagged forms for what JSON cannot hold (undefined, bytes, bigint, NaN/±Infinity/-0,
 * sparse holes). A plain object that itself looks like a tag is wrapped in `{"$obj": ...}`.
 * Keys such as `__proto__` survive: they are written and read as own properties.
 */
export type FuzzJson = null | boolean | number | string | FuzzJson[] | { [key: string]: FuzzJson };

const TAGS = ['$undefined', '$bytes', '$bigint', '$number', '$obj'];

function isTagLike(value: object): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && TAGS.includes(keys[0] as string);
}

function encodeNumber(n: number): FuzzJson {
  if (Number.isNaN(n)) return { $number: 'NaN' };
  if (n === Infinity || n === -Infinity) return { $number: String(n) };
  if (Object.is(n, -0)) return { $number: '-0' };
  return n;
}

/** Encodes a generated value as JSON (see the module comment). Functions and symbols become undefined. */
export function encodeFuzzValue(value: unknown): FuzzJson {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return { $undefined: true };
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return encodeNumber(value);
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return Array.from(value, (v) => encodeFuzzValue(v));
  const out: { [key: string]: FuzzJson } = {};
  for (const key of Object.keys(value as object)) {
    Object.defineProperty(out, key, {
      value: encodeFuzzValue((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return isTagLike(out) ? { $obj: out } : out;
}

function decodeTag(obj: { [key: string]: FuzzJson }): { hit: true; value: unknown } | { hit: false } {
  if (!isTagLike(obj)) return { hit: false };
  const [key] = Object.keys(obj) as [string];
  const arg = obj[key];
  if (key === '$undefined') return { hit: true, value: undefined };
  if (key === '$bytes') return { hit: true, value: new Uint8Array(Buffer.from(String(arg), 'base64')) };
  if (key === '$bigint') return { hit: true, value: BigInt(String(arg)) };
  if (key === '$number') return { hit: true, value: arg === '-0' ? -0 : Number(arg) };
  return { hit: true, value: decodeObject(arg as { [key: string]: FuzzJson }) };
}

function decodeObject(obj: { [key: string]: FuzzJson }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    Object.defineProperty(out, key, { value: decodeFuzzValue(obj[key] as FuzzJson), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The inverse of encodeFuzzValue. */
export function decodeFuzzValue(json: FuzzJson): unknown {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) return json.map((v) => decodeFuzzValue(v));
  const tag = decodeTag(json);
  return tag.hit ? tag.value : decodeObject(json);
}
