import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { CliError, EXIT } from '../cli/exit-codes';
import { callOpText } from '../client/call';
import { withNewline } from '../client/respond';

/** Writes the snapshot 0600, never through a symlink at the final component. */
async function writeSnapshot(file: string, text: string): Promise<void> {
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  } catch (err) {
    throw new CliError('write_failed', `cannot write the snapshot (${(err as NodeJS.ErrnoException).code ?? 'error'})`, EXIT.failed);
  }
  try {
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
}

/** `snapshot <swarm> [--yaml] [-o file]`: the effective config (seed ⊕ overlay), redacted by the server. */
export const snapshotCommand: CommandModule = {
  name: 'snapshot',
  register(program, deps): void {
    program
      .command('snapshot')
      .description('Print or write the effective config of a swarm (secrets redacted)')
      .addHelpText('after', '\nExample:\n  genswarms snapshot demo --yaml -o demo-now.yaml')
      .argument('<swarm>', 'swarm name')
      .option('--yaml', 'YAML instead of JSON')
      .option('-o, --output <file>', 'write to this file (0600) instead of stdout')
      .option('--json', 'print the server response unchanged (errors included)')
      .action(
        deps.action(async (swarm: string, opts: { yaml?: boolean; output?: string; json?: boolean }) => {
          const args = { params: { s: swarm }, query: { format: opts.yaml === true ? ('yaml' as const) : undefined } };
          const toStdout = opts.output === undefined;
          const text = withNewline(await callOpText(deps, 'snapshotSwarm', args, { json: opts.json === true && toStdout }));
          if (!toStdout) {
            await writeSnapshot(path.resolve(deps.ctx.cwd, opts.output ?? ''), text);
            writeLine(deps.ctx.stdout, `wrote the snapshot of ${swarm} to ${opts.output ?? ''}`);
          } else {
            deps.ctx.stdout.write(text);
          }
          return EXIT.ok;
        }),
      );
  },
};
