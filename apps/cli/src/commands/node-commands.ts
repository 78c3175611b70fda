import type { Command } from 'commander';
import type { CommandDeps } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { commaList } from '../cli/list-option';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';
import { loadSpecFile } from '../config/config-file';

/** What differs between `agents add|remove` and `objects add|remove` (both are nodes of the topology). */
export interface NodeKind {
  /** The REST collection: `agents` or `objects`. */
  readonly route: 'agents' | 'objects';
  /** `an agent`, `an object`. */
  readonly noun: string;
  /** Help of the file argument. */
  readonly fileHelp: string;
  /** The request body from the parsed file and its directory (agents resolve relative paths). */
  readonly body: (spec: Record<string, unknown>, dir: string) => Record<string, unknown>;
  readonly addExamples: string;
  readonly removeExample: string;
}

interface AddOptions {
  connect?: string;
  incoming?: string;
  json?: boolean;
}

/** `<kind> add <swarm> <file> [--connect a,b] [--incoming c,d]`: POST the node the file holds, with its edges. */
export function registerAddNode(parent: Command, deps: CommandDeps, kind: NodeKind): void {
  parent
    .command('add')
    .description(`Add ${kind.noun} to a running swarm from a JSON/YAML file holding it`)
    .argument('<swarm>', 'swarm name')
    .argument('<file>', kind.fileHelp)
    .option('--connect <nodes>', 'comma-separated targets it may send to (edges it → each)')
    .option('--incoming <nodes>', 'comma-separated senders that may send to it (edges each → it)')
    .option('--json', 'print the server response unchanged')
    .addHelpText('after', `\nExamples:\n${kind.addExamples}`)
    .action(
      deps.action(async (swarm: string, file: string, opts: AddOptions) => {
        const spec = await loadSpecFile(file, deps.ctx.cwd);
        const body = {
          ...kind.body(spec.value, spec.dir),
          ...(opts.connect === undefined ? {} : { connections: commaList(opts.connect) }),
          ...(opts.incoming === undefined ? {} : { incoming: commaList(opts.incoming) }),
        };
        const res = (await callApi(deps, 'POST', apiPath('swarms', swarm, kind.route), { body, json: opts.json === true })) as
          { name?: unknown } | undefined;
        if (opts.json !== true) writeLine(deps.ctx.stdout, `added ${swarm}/${String(res?.name)}`);
        return EXIT.ok;
      }),
    );
}

/** `<kind> remove <swarm> <name>`: DELETE it. */
export function registerRemoveNode(parent: Command, deps: CommandDeps, kind: NodeKind): void {
  parent
    .command('remove')
    .description(`Stop and remove ${kind.noun} from a running swarm`)
    .argument('<swarm>', 'swarm name')
    .argument('<name>', `the name of ${kind.noun}`)
    .option('--json', 'print the server response unchanged')
    .addHelpText('after', `\nExample:\n${kind.removeExample}`)
    .action(
      deps.action(async (swarm: string, name: string, opts: { json?: boolean }) => {
        await callApi(deps, 'DELETE', apiPath('swarms', swarm, kind.route, name), { json: opts.json === true });
        if (opts.json !== true) writeLine(deps.ctx.stdout, `removed ${swarm}/${name}`);
        return EXIT.ok;
      }),
    );
}
