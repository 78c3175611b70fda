import { ClientError } from '@genswarms/client';
import { gateStart } from '@genswarms/ir-gate';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { loadConfigFile, resolveConfigPaths } from '../config/config-file';
import { invalidDetailLines } from '../config/issue-lines';
import type { ConfigSource } from '../config/issue-lines';

/** What a valid file's line shows: the local gate's summary or the server's ConfigSummary (both carry these). */
interface ConfigCounts {
  readonly name: string;
  readonly agent_count: number;
  readonly object_count: number;
  readonly edge_count: number;
}

type FileResult =
  | { file: string; valid: true; config: ConfigCounts }
  | {
      file: string;
      valid: false;
      error: string;
      message: string;
      issues?: unknown;
      agent?: string;
      network?: string;
      [detail: string]: unknown;
    };

/**
 * The start gate for one file, locally (no server): schema, IR and the network matrix (docs/configuration.md), so a config
 * that `start` would refuse (e.g. tmux + isolated) is reported invalid. Relative workspace/skills
 * resolve against the file's directory.
 */
export async function validateFile(file: string, cwd: string): Promise<FileResult> {
  const loaded = await loadConfigFile(file, cwd);
  if (loaded.kind === 'invalid') return { file, valid: false, error: loaded.error, message: loaded.message };
  const gated = gateStart(loaded.value, { baseDir: loaded.dir });
  if (gated.kind === 'refused') {
    const { kind: _kind, error, message, ...details } = gated;
    return { file, valid: false, error, message, ...details };
  }
  return { file, valid: true, config: gated.summary };
}

/**
 * The same file checked by the server (`POST /api/config/validate`), which runs every plan-time check
 * `start` runs there (handlers, each agent's runner plan). The local gate runs first; the config goes as
 * `start` sends it, relative workspace/skills resolved against the file's directory.
 */
export async function validateFileOnServer(deps: CommandDeps, file: string): Promise<FileResult> {
  const local = await validateFile(file, deps.ctx.cwd);
  if (!local.valid) return local;
  const loaded = await loadConfigFile(file, deps.ctx.cwd);
  if (loaded.kind === 'invalid') return { file, valid: false, error: loaded.error, message: loaded.message };
  try {
    const { body } = await deps.api().call('validateConfig', { body: { config: resolveConfigPaths(loaded.value, loaded.dir) } });
    return { file, valid: true, config: body.config };
  } catch (err) {
    // Every refusal (a 401 included) is this file's result, printed as the local ones are; no answer stays exit 3.
    if (!(err instanceof ClientError)) throw err;
    const { valid: _valid, ...details } = err.details;
    const notApi = err.code === 'invalid_response';
    return {
      file,
      valid: false,
      error: notApi ? `http_${err.status}` : err.code,
      message: notApi || err.message === err.code ? 'the server gave no reason' : err.message,
      ...details,
    };
  }
}

function printHuman(ctx: CliContext, r: FileResult, source: ConfigSource | undefined): void {
  if (r.valid) {
    const s = r.config;
    writeLine(ctx.stdout, `${r.file}: valid (${s.name}: ${s.agent_count} agents, ${s.object_count} objects, ${s.edge_count} edges)`);
    return;
  }
  writeLine(ctx.stdout, `${r.file}: invalid: ${r.error}: ${r.message}`);
  for (const line of invalidDetailLines(r, source)) writeLine(ctx.stdout, line);
}

/** The file's text and value, for the caret lines (undefined when it cannot be read or parsed). */
async function sourceOf(file: string, cwd: string): Promise<ConfigSource | undefined> {
  const loaded = await loadConfigFile(file, cwd);
  return loaded.kind === 'ok' ? { text: loaded.text, value: loaded.value } : undefined;
}

async function validateAll(deps: CommandDeps, files: readonly string[], opts: { json: boolean; server: boolean }): Promise<ExitCode> {
  const { ctx } = deps;
  const { json } = opts;
  const results: FileResult[] = [];
  for (const file of files) results.push(opts.server ? await validateFileOnServer(deps, file) : await validateFile(file, ctx.cwd));
  if (json) writeLine(ctx.stdout, JSON.stringify(results));
  else for (const r of results) printHuman(ctx, r, r.valid ? undefined : await sourceOf(r.file, ctx.cwd));
  return results.every((r) => r.valid) ? EXIT.ok : EXIT.failed;
}

/** `config validate <files...> [--json]`: exit 0 if every file is valid, else 1. */
export const configCommand: CommandModule = {
  name: 'config',
  register(program, deps): void {
    const config = program
      .command('config')
      .description('Swarm config tools')
      .addHelpText('after', '\nExample:\n  genswarms config validate swarm.yaml');
    config
      .command('validate')
      .description('Validate config files locally (schema + IR gate, no server); --server adds every plan-time check of start')
      .argument('<files...>', 'JSON or YAML config files')
      .option('--json', 'print one JSON array of results')
      .option('--server', 'also ask the server, which runs every plan-time check start runs (handlers, runner plans)')
      .addHelpText(
        'after',
        `
Each problem is printed as <path>: <message> (enum fields list their allowed values), an agent's plan
refusal as agents.<i> (<name>): <code>: <message> (<values>), each followed by the offending line:

  swarm.yaml: invalid: unsupported_network: the backend cannot enforce this network mode
    agents.1 (scraper): unsupported_network: the backend cannot enforce this network mode (backend local, network "isolated")
        7 |     network: isolated
          |              ^

Examples:
  genswarms config validate swarm.yaml
  genswarms config validate --server swarm.yaml other.json --json`,
      )
      .action(
        deps.action(async (files: string[], opts: { json?: boolean; server?: boolean }) =>
          validateAll(deps, files, { json: opts.json === true, server: opts.server === true }),
        ),
      );
  },
};
