import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isRecord, parseConfigText } from '@genswarms/ir-gate';
import { CliError, EXIT } from '../cli/exit-codes';

/** The CLI reads operator files, unconfined, but still bounded: 1 MiB like the server. */
export const CLI_CONFIG_MAX_BYTES = 1048576;
const FORMATS: ReadonlyMap<string, 'json' | 'yaml' | 'yml'> = new Map([
  ['.json', 'json'],
  ['.yaml', 'yaml'],
  ['.yml', 'yml'],
]);

export type ConfigFileLoad =
  | { kind: 'ok'; value: unknown; abs: string; dir: string; text: string }
  | { kind: 'invalid'; error: 'unsupported_format' | 'config_unreadable' | 'config_too_large' | 'config_parse_error'; message: string };

async function readBounded(file: string): Promise<Buffer | { error: 'config_unreadable' | 'config_too_large'; message: string }> {
  try {
    const st = await fsp.stat(file);
    if (!st.isFile()) return { error: 'config_unreadable', message: 'not a regular file' };
    if (st.size > CLI_CONFIG_MAX_BYTES) return { error: 'config_too_large', message: `larger than ${CLI_CONFIG_MAX_BYTES} bytes` };
    return await fsp.readFile(file);
  } catch {
    // expected: the typed config_unreadable error, without the path
    return { error: 'config_unreadable', message: 'config file could not be read' };
  }
}

/** Reads and parses a local JSON/YAML swarm config (format from the extension). */
export async function loadConfigFile(file: string, cwd: string): Promise<ConfigFileLoad> {
  const abs = path.resolve(cwd, file);
  const format = FORMATS.get(path.extname(abs).toLowerCase());
  if (format === undefined) return { kind: 'invalid', error: 'unsupported_format', message: 'config files must be .json, .yaml or .yml' };
  const text = await readBounded(abs);
  if (!Buffer.isBuffer(text)) return { kind: 'invalid', ...text };
  const loaded = parseConfigText(text, format);
  if (loaded.kind === 'invalid') return { kind: 'invalid', error: loaded.code, message: loaded.message };
  return { kind: 'ok', value: loaded.value, abs, dir: path.dirname(abs), text: text.toString('utf8') };
}

/**
 * A copy of the parsed document with each agent's relative `workspace` and `skills` entries made
 * absolute against `baseDir` (docs/configuration.md). Everything else is left for the server to validate.
 */
export function resolveConfigPaths(value: unknown, baseDir: string): unknown {
  if (!isRecord(value) || !Array.isArray(value['agents'])) return value;
  const abs = (p: unknown): unknown => (typeof p === 'string' && p !== '' && !path.isAbsolute(p) ? path.resolve(baseDir, p) : p);
  const agents = value['agents'].map((agent: unknown) => {
    if (!isRecord(agent)) return agent;
    const out: Record<string, unknown> = { ...agent };
    if ('workspace' in agent) out['workspace'] = abs(agent['workspace']);
    if (Array.isArray(agent['skills'])) out['skills'] = agent['skills'].map(abs);
    return out;
  });
  return { ...value, agents };
}

/** A local JSON/YAML file holding one object (an agent or object spec, an object config), or a CliError (exit 1). */
export async function loadSpecFile(file: string, cwd: string): Promise<{ value: Record<string, unknown>; dir: string }> {
  const loaded = await loadConfigFile(file, cwd);
  if (loaded.kind === 'invalid') throw new CliError(loaded.error, loaded.message, EXIT.failed);
  if (!isRecord(loaded.value)) throw new CliError('config_parse_error', `${file} must hold one JSON/YAML object`, EXIT.failed);
  return { value: loaded.value, dir: loaded.dir };
}
