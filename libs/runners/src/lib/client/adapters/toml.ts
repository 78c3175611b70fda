/** The few TOML forms Codex's config.toml needs, written so that no value can end a string or start a table. */

/** A TOML basic string: `\` and `"` escaped, every control character (C0, DEL) as `\uXXXX`. */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === '"') out += `\\${ch}`;
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `key = value` lines; keys are bare words chosen by the adapter, values strings or booleans. */
export function tomlPairs(pairs: ReadonlyArray<readonly [string, string | boolean]>): string[] {
  return pairs.map(([key, value]) => `${key} = ${typeof value === 'boolean' ? String(value) : tomlString(value)}`);
}

/** An inline table `{ K = "v", … }` of string values (keys quoted). */
export function tomlInlineTable(entries: ReadonlyArray<readonly [string, string]>): string {
  return `{ ${entries.map(([k, v]) => `${tomlString(k)} = ${tomlString(v)}`).join(', ')} }`;
}
