/** @genswarms/cli: the `genswarms` command. `runCli` is the in-process entry used by main and tests. */
export { runCli } from './cli/run-cli';
export { EXIT, CliError } from './cli/exit-codes';
export type { ExitCode } from './cli/exit-codes';
export type { CliContext } from './cli/context';
export type { CommandModule, CommandDeps } from './cli/command-module';
export { COMMANDS } from './commands';
export { createApiClient, parseBaseUrl, DEFAULT_BASE_URL, REQUEST_TIMEOUT_MS } from './client/api-client';
export type { ApiAnswer, ApiClient } from './client/api-client';
export { CLI_VERSION } from './version';
