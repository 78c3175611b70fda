import * as path from 'node:path';

/** Largest config file the server reads: 1 MiB (docs/security.md). */
export const CONFIG_MAX_BYTES = 1048576;

export type ConfigFormat = 'json' | 'yaml';
export type ConfinedCheck =
  | { kind: 'ok'; candidate: string; format: ConfigFormat }
  | { kind: 'refused'; code: 'invalid_config_path' | 'unsupported_format'; message: string };

const EXTENSIONS: ReadonlyMap<string, ConfigFormat> = new Map([
  ['.json', 'json'],
  ['.yaml', 'yaml'],
  ['.yml', 'yaml'],
]);

/** Lexical containment: `p` is `base` itself or below `base + "/"` (every absolute path when base is `/`). */
export function isInsideBase(base: string, p: string): boolean {
  const root = path.resolve(base);
  if (root === '/') return p.startsWith('/');
  return p === root || p.startsWith(`${root}/`);
}

const refuse = (code: 'invalid_config_path' | 'unsupported_format', message: string): ConfinedCheck => ({
  kind: 'refused',
  code,
  message,
});

/**
 * docs/security.md steps 1–3, pure (no file-system access): a non-empty string without NUL and not
 * starting with `~`; lexically inside `base`; extension .json/.yaml/.yml (case-insensitive).
 */
export function checkConfinedPath(base: string, configPath: unknown): ConfinedCheck {
  if (typeof configPath !== 'string' || configPath === '' || configPath.includes('\0') || configPath.startsWith('~')) {
    return refuse('invalid_config_path', 'config_path must be a non-empty relative path inside the config directory');
  }
  const candidate = path.resolve(base, configPath);
  if (!isInsideBase(base, candidate)) {
    return refuse('invalid_config_path', 'config_path must stay inside the config directory');
  }
  const format = EXTENSIONS.get(path.extname(candidate).toLowerCase());
  if (format === undefined) return refuse('unsupported_format', 'config files must be .json, .yaml or .yml');
  return { kind: 'ok', candidate, format };
}
