/** `startSwarm({config})` / `startSwarm({path})`: reading and parsing before the gate. */
import { parseConfigText } from '@genswarms/ir-gate';
import { checkConfinedPath, readConfinedConfig } from '@genswarms/security';
import * as path from 'node:path';
import { EngineError } from '../errors/engine-error';

export type StartInput = { readonly config: unknown } | { readonly path: string };

export async function loadStartInput(input: StartInput, configDir: string): Promise<{ value: unknown; baseDir: string }> {
  if ('config' in input) return { value: input.config, baseDir: configDir };
  const read = await readConfinedConfig(configDir, input.path);
  if (read.kind === 'refused') throw new EngineError(read.code, read.message);
  const checked = checkConfinedPath(configDir, input.path);
  const baseDir = checked.kind === 'ok' ? path.dirname(checked.candidate) : configDir;
  const parsed = parseConfigText(read.content, read.format);
  if (parsed.kind === 'invalid') throw new EngineError(parsed.code, parsed.message);
  return { value: parsed.value, baseDir };
}

export function nameOfInput(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const name = (value as { name?: unknown }).name;
  return typeof name === 'string' ? name : null;
}
