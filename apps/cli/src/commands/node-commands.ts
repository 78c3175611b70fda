import type { Command } from 'commander';
import type { CommandDeps } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { commaList } from '../cli/list-option';
import type { Schemas } from '@genswarms/client';
import { callOp } from '../client/call';
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

/**
 * A request body read from the operator's file: sent as the file holds it, the server's schema is its check
 * (answers 400 `invalid_config` with the issues). The one place the CLI types a body it has not built.
 */
function fromFile<Body>(body: Record<string, unknown>): Body {
  return body as Body;
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
        const json = opts.json === true;
        const res =
          kind.route === 'agents'
            ? await callOp(deps, 'addAgent', { params: { s: swarm }, body: fromFile<Schemas['AddAgentCommand']>(body) }, { json })
            : await callOp(deps, 'addObject', { params: { s: swarm }, body: fromFile<Schemas['AddObjectCommand']>(body) }, { json });
        if (!json) writeLine(deps.ctx.stdout, `added ${swarm}/${res.name}`);
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
        const json = opts.json === true;
        if (kind.route === 'agents') await callOp(deps, 'removeAgent', { params: { s: swarm, a: name } }, { json });
        else await callOp(deps, 'removeObject', { params: { s: swarm, o: name } }, { json });
        if (opts.json !== true) writeLine(deps.ctx.stdout, `removed ${swarm}/${name}`);
        return EXIT.ok;
      }),
    );
}
