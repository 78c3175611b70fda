import { Command, CommanderError } from 'commander';
import { createApiClient } from '../client/api-client';
import type { ApiClient } from '../client/api-client';
import { resolveBaseUrl } from '../client/base-url';
import { reportError } from '../client/respond';
import { COMMANDS } from '../commands';
import { CLI_VERSION } from '../version';
import type { CommandDeps } from './command-module';
import type { CliContext } from './context';
import { writeLine } from './context';
import { CliError, EXIT } from './exit-codes';

function buildProgram(ctx: CliContext, deps: CommandDeps): Command {
  const program = new Command();
  program
    .name('genswarms')
    .description('Run swarms of LLM agents safely.')
    // Program options only before the command: `clients install codex --version V` is the client's version, not ours.
    .enablePositionalOptions()
    .version(CLI_VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
      outputError: (s, write) => write(`genswarms: usage: ${s.replace(/^error: /, '')}`),
    });
  for (const module of COMMANDS) module.register(program, deps);
  return program;
}

function exitForCommanderError(err: CommanderError): number {
  return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage;
}

/**
 * Parses argv, runs one command and returns the exit code (docs/cli.md). Never calls process.exit,
 * so tests run it in-process.
 */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode: number = EXIT.ok;
  let client: ApiClient | undefined;
  const deps: CommandDeps = {
    ctx,
    api: () => {
      if (client !== undefined) return client;
      const base = resolveBaseUrl(ctx.env, ctx.cwd);
      client = createApiClient({
        baseUrl: base.url,
        source: base.source,
        token: ctx.env['GENSWARMS_API_TOKEN'],
        ...(ctx.requestTimeoutMs === undefined ? {} : { timeoutMs: ctx.requestTimeoutMs }),
      });
      return client;
    },
    action:
      (fn) =>
      async (...args) => {
        exitCode = await fn(...args);
      },
  };
  try {
    await buildProgram(ctx, deps).parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return exitForCommanderError(err);
    if (err instanceof CliError) {
      reportError(ctx, err);
      return err.exit;
    }
    writeLine(ctx.stderr, `genswarms: internal_error: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT.failed;
  }
}
