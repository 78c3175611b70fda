import type { Command } from 'commander';
import type { ApiClient } from '../client/api-client';
import type { CliContext } from './context';
import type { ExitCode } from './exit-codes';

/** What a command file receives: the process edge, a lazy API client (GENSWARMS_URL checked on first use), and `action`. */
export interface CommandDeps {
  readonly ctx: CliContext;
  api(): ApiClient;
  /** Wraps an async handler; its return value becomes the process exit code, a thrown CliError its error line. */
  action<A extends unknown[]>(fn: (...args: A) => Promise<ExitCode>): (...args: A) => Promise<void>;
}

/** One command per file under src/commands/; `COMMANDS` lists them. */
export interface CommandModule {
  readonly name: string;
  register(program: Command, deps: CommandDeps): void;
}
