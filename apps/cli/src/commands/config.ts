import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { parseConfigText, validateConfig } from '@genswarms/ir-gate';
import type { CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';

/** The CLI reads operator files, unconfined, but still bounded: 1 MiB like the server. */
const CLI_CONFIG_MAX_BYTES = 1048576;
const FORMATS: ReadonlyMap<string, 'json' | 'yaml' | 'yml'> = new Map([
  ['.json', 'json'],
  ['.yaml', 'yaml'],
  ['.yml', 'yml'],
]);

type FileResult = { file: string; valid: true; config: unknown } | { file: string; valid: false; error: string; message: string; issues?: unknown };

async function readText(file: string): Promise<Buffer | { error: string; message: string }> {
  try {
    const st = await fsp.stat(file);
    if (!st.isFile()) return { error: 'config_unreadable', message: 'not a regular file' };
    if (st.size > CLI_CONFIG_MAX_BYTES) return { error: 'config_too_large', message: `larger than ${CLI_CONFIG_MAX_BYTES} bytes` };
    return await fsp.readFile(file);
  } catch {
    return { error: 'config_unreadable', message: 'config file could not be read' };
  }
}

/** Schema + IR gate for one file, locally (no server). Relative workspace/skills resolve against the file's directory. */
export async function validateFile(file: string, cwd: string): Promise<FileResult> {
  const abs = path.resolve(cwd, file);
  const format = FORMATS.get(path.extname(abs).toLowerCase());
  if (format === undefined) return { file, valid: false, error: 'unsupported_format', message: 'config files must be .json, .yaml or .yml' };
  const text = await readText(abs);
  if (!Buffer.isBuffer(text)) return { file, valid: false, ...text };
  const loaded = parseConfigText(text, format);
  if (loaded.kind === 'invalid') return { file, valid: false, error: loaded.code, message: loaded.message };
  const checked = validateConfig(loaded.value, { baseDir: path.dirname(abs) });
  if (checked.kind === 'invalid') return { file, valid: false, error: checked.error, message: checked.message, issues: checked.issues };
  return { file, valid: true, config: checked.summary };
}

function printHuman(ctx: CliContext, r: FileResult): void {
  if (r.valid) {
    const s = r.config as { name: string; agent_count: number; object_count: number; edge_count: number };
    writeLine(ctx.stdout, `${r.file}: valid (${s.name}: ${s.agent_count} agents, ${s.object_count} objects, ${s.edge_count} edges)`);
    return;
  }
  writeLine(ctx.stdout, `${r.file}: invalid: ${r.error}: ${r.message}`);
  for (const issue of Array.isArray(r.issues) ? r.issues : []) writeLine(ctx.stdout, `  ${JSON.stringify(issue)}`);
}

async function validateAll(ctx: CliContext, files: readonly string[], json: boolean): Promise<ExitCode> {
  const results: FileResult[] = [];
  for (const file of files) results.push(await validateFile(file, ctx.cwd));
  if (json) writeLine(ctx.stdout, JSON.stringify(results));
  else for (const r of results) printHuman(ctx, r);
  return results.every((r) => r.valid) ? EXIT.ok : EXIT.failed;
}

/** `config validate <files...> [--json]`: exit 0 if every file is valid, else 1. */
export const configCommand: CommandModule = {
  name: 'config',
  register(program, deps): void {
    const config = program.command('config').description('Swarm config tools');
    config
      .command('validate')
      .description('Validate config files locally (schema + IR gate, no server)')
      .argument('<files...>', 'JSON or YAML config files')
      .option('--json', 'print one JSON array of results')
      .action(deps.action(async (files: string[], opts: { json?: boolean }) => validateAll(deps.ctx, files, opts.json === true)));
  },
};
