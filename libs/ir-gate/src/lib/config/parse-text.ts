import { parseDocument } from 'yaml';
import { scanUntrusted } from './forbidden-keys';
import { locateJsonError, lineColumnOf } from './json-locate';
import { CONFIG_MAX_BYTES, YAML_MAX_ALIAS_COUNT, YAML_MAX_BYTES } from './limits';
import { findDuplicateYamlKey } from './yaml-duplicate-keys';
import { isYamlNestedTooDeep } from './yaml-prescan';

export type ConfigFormat = 'json' | 'yaml' | 'yml';
export type ConfigLoadErrorCode = 'config_parse_error' | 'config_too_large' | 'unsupported_format';
/** Result of reading config text. Messages carry line/column, never paths or contents. */
export type ConfigLoad =
  { kind: 'ok'; value: unknown } | { kind: 'invalid'; code: ConfigLoadErrorCode; message: string; line?: number; column?: number };

function invalid(code: ConfigLoadErrorCode, message: string, at?: { line: number; column: number }): ConfigLoad {
  return at === undefined ? { kind: 'invalid', code, message } : { kind: 'invalid', code, message, ...at };
}

function decode(text: string | Buffer): string | null {
  if (typeof text === 'string') return text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    // expected: invalid UTF-8 is reported by the caller (null)
    return null;
  }
}

function parseJson(text: string): ConfigLoad {
  try {
    return { kind: 'ok', value: JSON.parse(text) as unknown };
  } catch {
    // expected: the position is recomputed from the text; the parser's message is not used (it may quote the config)
    const offset = locateJsonError(text);
    const at = lineColumnOf(text, offset < 0 ? text.length : offset);
    return invalid('config_parse_error', `invalid JSON at line ${at.line}, column ${at.column}`, at);
  }
}

const YAML_PROBLEMS: Readonly<Record<string, string>> = {
  DUPLICATE_KEY: 'duplicate key',
  MULTIPLE_DOCS: 'more than one YAML document',
  TAG_RESOLVE_FAILED: 'custom YAML tags are refused',
  BAD_ALIAS: 'unresolved alias',
};

function parseYaml(text: string): ConfigLoad {
  if (isYamlNestedTooDeep(text)) return invalid('config_parse_error', 'YAML nesting too deep (refused before parsing)');
  try {
    // uniqueKeys off and errors not prettified: both cost quadratic time on large documents; duplicate keys
    // are found in linear time below, and only the first problem's position is computed.
    const doc = parseDocument(text, {
      schema: 'core',
      uniqueKeys: false,
      merge: false,
      resolveKnownTags: false,
      prettyErrors: false,
      strict: true,
    });
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem !== undefined) {
      const at = lineColumnOf(text, problem.pos[0]);
      return invalid('config_parse_error', `${YAML_PROBLEMS[problem.code] ?? 'invalid YAML'} at line ${at.line}, column ${at.column}`, at);
    }
    const duplicate = findDuplicateYamlKey(doc);
    if (duplicate >= 0) {
      const at = lineColumnOf(text, duplicate);
      return invalid('config_parse_error', `duplicate key at line ${at.line}, column ${at.column}`, at);
    }
    return { kind: 'ok', value: doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT }) as unknown };
  } catch (err) {
    const alias = err instanceof Error && /alias/i.test(err.message);
    return invalid('config_parse_error', alias ? 'too many YAML alias expansions (refused)' : 'YAML nesting too deep or malformed');
  }
}

/**
 * Parses a JSON or YAML config document (docs/security.md, docs/configuration.md): UTF-8, at most CONFIG_MAX_BYTES (YAML: YAML_MAX_BYTES),
 * YAML core schema with unique keys, no custom tags, at most 100 alias expansions, nesting capped.
 * Never throws.
 */
export function parseConfigText(text: string | Buffer, format: ConfigFormat): ConfigLoad {
  if ((format as unknown) !== 'json' && (format as unknown) !== 'yaml' && (format as unknown) !== 'yml') {
    return invalid('unsupported_format', 'format must be json, yaml or yml');
  }
  const size = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : (text as Buffer | undefined)?.length;
  if (typeof size !== 'number') return invalid('config_parse_error', 'config text must be a string or bytes');
  if (size > CONFIG_MAX_BYTES) return invalid('config_too_large', `config is larger than ${CONFIG_MAX_BYTES} bytes`);
  if (format !== 'json' && size > YAML_MAX_BYTES)
    return invalid('config_too_large', `a YAML config is larger than ${YAML_MAX_BYTES} bytes`);
  const decoded = decode(text);
  if (decoded === null) return invalid('config_parse_error', 'config is not valid UTF-8');
  const body = decoded.startsWith('\uFEFF') ? decoded.slice(1) : decoded;
  const loaded = format === 'json' ? parseJson(body) : parseYaml(body);
  if (loaded.kind !== 'ok') return loaded;
  const deep = scanUntrusted(loaded.value).find((i) => i.message.startsWith('nesting'));
  return deep === undefined ? loaded : invalid('config_parse_error', deep.message);
}
