import type { Command } from 'commander';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { usageError } from '../cli/args';
import { collect } from '../cli/list-option';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';

/** `a:b` → `{from:'a', to:'b'}`; anything else is a usage error (exit 2) before any request. */
export function parseEdge(raw: string): { from: string; to: string } {
  const parts = raw.split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '')
    throw usageError(`an edge is <from>:<to>, got ${JSON.stringify(oneLine(raw, 80))}`);
  return { from: parts[0] ?? '', to: parts[1] ?? '' };
}

function registerShow(topology: Command, deps: CommandDeps): void {
  topology
    .command('show')
    .description('Who may send to whom: one line per sender')
    .argument('<swarm>', 'swarm name')
    .option('--json', 'print the server response unchanged')
    .addHelpText('after', '\nExample:\n  genswarms topology show demo')
    .action(
      deps.action(async (swarm: string, opts: { json?: boolean }) => {
        const body = await callOp(deps, 'getTopology', { params: { s: swarm } }, { json: opts.json === true });
        if (opts.json === true) return EXIT.ok;
        const entries = body.topology;
        if (entries.length === 0) writeLine(deps.ctx.stdout, 'no edges');
        for (const e of entries) {
          const targets = Array.isArray(e.targets) ? e.targets.map((t) => oneLine(String(t), 64)).join(', ') : '';
          writeLine(deps.ctx.stdout, `${oneLine(String(e.from), 64)} -> ${targets}`);
        }
        return EXIT.ok;
      }),
    );
}

function registerPatch(topology: Command, deps: CommandDeps): void {
  topology
    .command('patch')
    .description('Add or remove edges of a running swarm (all or nothing)')
    .argument('<swarm>', 'swarm name')
    .option('--add <from:to>', 'add the edge from → to (repeatable)', collect, [])
    .option('--remove <from:to>', 'remove the edge from → to (repeatable)', collect, [])
    .option('--json', 'print the server response unchanged')
    .addHelpText(
      'after',
      '\nExamples:\n  genswarms topology patch demo --add writer:critic\n  genswarms topology patch demo --remove critic:writer --add critic:editor',
    )
    .action(
      deps.action(async (swarm: string, opts: { add: string[]; remove: string[]; json?: boolean }) => {
        if (opts.add.length === 0 && opts.remove.length === 0) throw usageError('give at least one --add or --remove');
        const body = { add: opts.add.map(parseEdge), remove: opts.remove.map(parseEdge) };
        const res = await callOp(deps, 'patchTopology', { params: { s: swarm }, body }, { json: opts.json === true });
        if (opts.json !== true) writeLine(deps.ctx.stdout, `${swarm}: ${res.added} edge(s) added, ${res.removed} removed`);
        return EXIT.ok;
      }),
    );
}

/** `topology show|patch`. */
export const topologyCommand: CommandModule = {
  name: 'topology',
  register(program, deps): void {
    const topology = program
      .command('topology')
      .description('Show or change who may send to whom in a swarm')
      .addHelpText('after', '\nExamples:\n  genswarms topology show demo\n  genswarms topology patch demo --add writer:critic');
    registerShow(topology, deps);
    registerPatch(topology, deps);
  },
};
