import { CODING_CLIENTS, CODING_CLIENT_NAMES, isClientVersion, isCodingClientName } from '@genswarms/runners';
import type { CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { findOnPath } from '../cli/which';
import { clientRow, listClientRows } from '../clients/client-rows';
import type { ClientRow } from '../clients/client-rows';
import { clientsDirOf } from '../clients/clients-dir';
import { installClient } from '../clients/install-client';
import { ensureHome } from '../daemon/home';
import { renderTable } from '../view/table';
import { terminalOf } from '../view/terminal';

const NAMES = CODING_CLIENT_NAMES.join('|');

/** `clients install [name] [--version V]`: one client, or all three at their pinned versions. */
async function install(ctx: CliContext, name: string | undefined, version: string | undefined): Promise<ExitCode> {
  if (name !== undefined && !isCodingClientName(name)) throw new CliError('invalid_client', `client must be one of ${NAMES}`, EXIT.usage);
  if (version !== undefined && name === undefined) throw new CliError('invalid_version', '--version needs a client name', EXIT.usage);
  if (version !== undefined && !isClientVersion(version))
    throw new CliError('invalid_version', '--version must be an exact version like 1.2.3', EXIT.usage);
  const npm = findOnPath('npm', ctx.env['PATH']);
  if (npm === undefined) throw new CliError('npm_missing', 'npm was not found on PATH; install Node.js with npm', EXIT.failed);
  const where = clientsDirOf(ctx.env, ctx.cwd);
  if (where.source === 'GENSWARMS_HOME') await ensureHome(ctx.env, ctx.cwd);
  let failed = false;
  for (const client of name === undefined ? CODING_CLIENT_NAMES : [name]) {
    const wanted = version ?? CODING_CLIENTS[client].pinnedVersion;
    const outcome = await installClient(ctx, { clientsDir: where.dir, name: client, version: wanted, npm, node: process.execPath });
    const row = await clientRow(where.dir, client, wanted);
    const verb = outcome.kind === 'installed' ? 'installed' : 'already installed';
    writeLine(ctx.stdout, `${client} ${wanted}: ${verb}: ${outcome.client.binary}`);
    if (row.state !== 'ok') {
      writeLine(ctx.stderr, `genswarms: client_not_runnable: ${client} ${wanted}: ${row.detail}`);
      failed = true;
    }
  }
  return failed ? EXIT.failed : EXIT.ok;
}

async function list(ctx: CliContext, json: boolean): Promise<ExitCode> {
  const where = clientsDirOf(ctx.env, ctx.cwd);
  const rows = await listClientRows(where.dir);
  if (json) {
    writeLine(ctx.stdout, JSON.stringify({ clients_dir: where.dir, clients: rows }));
    return EXIT.ok;
  }
  writeLine(ctx.stdout, `clients in ${where.dir} (${where.source})`);
  const cols = [
    { header: 'CLIENT' },
    { header: 'VERSION' },
    { header: 'PINNED' },
    { header: 'BINARY', shrink: { min: 20 } },
    { header: 'RUNS' },
  ];
  for (const line of renderTable(terminalOf(ctx.stdout, ctx.env), cols, rows.map(cells))) writeLine(ctx.stdout, line);
  return EXIT.ok;
}

function cells(row: ClientRow): Array<{ text: string; colour?: 'green' | 'red' | 'dim' }> {
  const runs = row.state === 'ok' ? `yes (${row.detail})` : row.state === 'not_installed' ? row.detail : `no: ${row.state}: ${row.detail}`;
  return [
    { text: row.name },
    { text: row.version ?? '-' },
    { text: row.pinned_version },
    { text: row.binary ?? '-' },
    { text: runs, colour: row.state === 'ok' ? 'green' : row.state === 'not_installed' ? 'dim' : 'red' },
  ];
}

/**
 * `clients install|list`: the published coding clients (docs/clients.md), installed with npm into a
 * directory genswarms owns (`GENSWARMS_CLIENTS_DIR`, else `$GENSWARMS_HOME/clients`), never globally.
 */
export const clientsCommand: CommandModule = {
  name: 'clients',
  register(program, deps): void {
    const clients = program
      .command('clients')
      .description('The coding clients agents can run (codex, claude, opencode), installed by genswarms at pinned versions')
      .addHelpText('after', `\nExamples:\n  genswarms clients install\n  genswarms clients list`);
    clients
      .command('install [client]')
      .description(
        `Install ${NAMES} (default: all three at their pinned versions) with npm into GENSWARMS_CLIENTS_DIR or $GENSWARMS_HOME/clients`,
      )
      .option('--version <version>', 'an exact version instead of the pinned one (needs a client name)')
      .addHelpText(
        'after',
        `\nPinned: ${CODING_CLIENT_NAMES.map((n) => `${n} ${CODING_CLIENTS[n].pinnedVersion}`).join(', ')}.\n\nExamples:\n  genswarms clients install\n  genswarms clients install codex --version ${CODING_CLIENTS.codex.pinnedVersion}`,
      )
      .action(deps.action(async (name: string | undefined, opts: { version?: string }) => install(deps.ctx, name, opts.version)));
    clients
      .command('list')
      .description('Each installed client: version, pinned version, native binary, and whether `--version` runs')
      .option('--json', 'print {clients_dir, clients: [{name, version, pinned_version, state, binary, detail}]}')
      .addHelpText('after', `\nExamples:\n  genswarms clients list\n  genswarms clients list --json`)
      .action(deps.action(async (opts: { json?: boolean }) => list(deps.ctx, opts.json === true)));
  },
};
