import type { Command } from 'commander';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';
import { loadSpecFile } from '../config/config-file';
import { registerAddNode, registerRemoveNode } from './node-commands';
import type { NodeKind } from './node-commands';

const JSON_HELP = 'print the server response unchanged';

function registerList(objects: Command, deps: CommandDeps): void {
  objects
    .command('list')
    .description("A swarm's objects: name, handler, state")
    .argument('<swarm>', 'swarm name')
    .option('--json', JSON_HELP)
    .addHelpText('after', '\nExample:\n  genswarms objects list demo')
    .action(
      deps.action(async (swarm: string, opts: { json?: boolean }) => {
        const body = await callOp(deps, 'listObjects', { params: { s: swarm } }, { json: opts.json === true });
        if (opts.json === true) return EXIT.ok;
        const rows = body.objects;
        if (rows.length === 0) writeLine(deps.ctx.stdout, 'no objects');
        for (const o of rows)
          writeLine(deps.ctx.stdout, `${oneLine(String(o.name), 64)}  ${oneLine(String(o.handler), 64)}  ${oneLine(String(o.state), 32)}`);
        return EXIT.ok;
      }),
    );
}

function registerShow(objects: Command, deps: CommandDeps): void {
  objects
    .command('show')
    .description('One object: its spec (secrets redacted) and state, as JSON')
    .argument('<swarm>', 'swarm name')
    .argument('<object>', 'object name')
    .option('--json', JSON_HELP)
    .addHelpText('after', '\nExample:\n  genswarms objects show demo board')
    .action(
      deps.action(async (swarm: string, object: string, opts: { json?: boolean }) => {
        const body = await callOp(deps, 'getObject', { params: { s: swarm, o: object } }, { json: opts.json === true });
        if (opts.json !== true) writeLine(deps.ctx.stdout, JSON.stringify(body, null, 2));
        return EXIT.ok;
      }),
    );
}

const OBJECT: NodeKind = {
  route: 'objects',
  noun: 'an object',
  fileHelp: 'object spec {name, handler, config?} (.json, .yaml, .yml)',
  body: (spec) => spec,
  addExamples: '  genswarms objects add demo board.yaml --incoming writer',
  removeExample: '  genswarms objects remove demo board',
};

function registerPatch(objects: Command, deps: CommandDeps): void {
  objects
    .command('patch')
    .description("Change mutable keys of an object's config (the handler's configSchema decides which)")
    .argument('<swarm>', 'swarm name')
    .argument('<object>', 'object name')
    .argument('<file>', 'the keys to change, one JSON/YAML object')
    .option('--json', JSON_HELP)
    .addHelpText('after', '\nExample:\n  echo "{level: debug}" > patch.yaml && genswarms objects patch demo board patch.yaml')
    .action(
      deps.action(async (swarm: string, object: string, file: string, opts: { json?: boolean }) => {
        const spec = await loadSpecFile(file, deps.ctx.cwd);
        const params = { s: swarm, o: object };
        const res = await callOp(deps, 'patchObjectConfig', { params, body: { config: spec.value } }, { json: opts.json === true });
        const keys = res.keys.map((k) => oneLine(k, 64)).join(', ');
        if (opts.json !== true) writeLine(deps.ctx.stdout, `updated ${swarm}/${object}: ${keys}`);
        return EXIT.ok;
      }),
    );
}

/** `objects list|show|add|remove|patch`. */
export const objectsCommand: CommandModule = {
  name: 'objects',
  register(program, deps): void {
    const objects = program
      .command('objects')
      .description('List, show, add, remove or reconfigure the objects of a swarm')
      .addHelpText('after', '\nExamples:\n  genswarms objects list demo\n  genswarms objects patch demo board patch.yaml');
    registerList(objects, deps);
    registerShow(objects, deps);
    registerAddNode(objects, deps, OBJECT);
    registerRemoveNode(objects, deps, OBJECT);
    registerPatch(objects, deps);
  },
};
