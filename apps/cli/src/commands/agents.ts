import type { Command } from 'commander';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';
import { resolveConfigPaths } from '../config/config-file';
import { agentTable, failureLines } from '../view/agent-table';
import { attentionLines } from '../view/attention-lines';
import { terminalOf } from '../view/terminal';
import { registerAddNode, registerRemoveNode } from './node-commands';
import type { NodeKind } from './node-commands';

const JSON_HELP = 'print the server response unchanged';

function registerList(agents: Command, deps: CommandDeps): void {
  agents
    .command('list')
    .description("A swarm's agents as the status table (GET /api/swarms/<s>/agents)")
    .argument('<swarm>', 'swarm name')
    .option('--json', JSON_HELP)
    .addHelpText('after', '\nExample:\n  genswarms agents list demo --json')
    .action(
      deps.action(async (swarm: string, opts: { json?: boolean }) => {
        const body = await callOp(deps, 'listAgents', { params: { s: swarm } }, { json: opts.json === true });
        if (opts.json === true) return EXIT.ok;
        const list = body.agents;
        const table = list.length === 0 ? ['no agents'] : agentTable(terminalOf(deps.ctx.stdout, deps.ctx.env), list, Date.now());
        const failures = [...failureLines(list), ...attentionLines(list)];
        const lines = failures.length === 0 ? table : [...table, '', ...failures];
        for (const line of lines) writeLine(deps.ctx.stdout, line);
        return EXIT.ok;
      }),
    );
}

function registerShow(agents: Command, deps: CommandDeps): void {
  agents
    .command('show')
    .description("One agent's status (GET /api/swarms/<s>/agents/<a>)")
    .argument('<swarm>', 'swarm name')
    .argument('<agent>', 'agent name')
    .option('--json', JSON_HELP)
    .addHelpText('after', '\nExample:\n  genswarms agents show demo writer')
    .action(
      deps.action(async (swarm: string, agent: string, opts: { json?: boolean }) => {
        const body = await callOp(deps, 'getAgent', { params: { s: swarm, a: agent } }, { json: opts.json === true });
        if (opts.json === true) return EXIT.ok;
        const one = [body];
        for (const line of [
          ...agentTable(terminalOf(deps.ctx.stdout, deps.ctx.env), one, Date.now()),
          ...failureLines(one),
          ...attentionLines(one),
        ])
          writeLine(deps.ctx.stdout, line);
        return EXIT.ok;
      }),
    );
}

const AGENT: NodeKind = {
  route: 'agents',
  noun: 'an agent',
  fileHelp: 'agent spec (.json, .yaml, .yml; docs/configuration.md); relative workspace/skills resolve against its directory',
  body: (spec, dir) => (resolveConfigPaths({ agents: [spec] }, dir) as { agents: Array<Record<string, unknown>> }).agents[0] ?? spec,
  addExamples: '  genswarms agents add demo reviewer.yaml\n  genswarms agents add demo reviewer.yaml --incoming writer --connect writer',
  removeExample: '  genswarms agents remove demo reviewer',
};

/** `agents list|show|add|remove`: the agent routes of docs/rest-api.md. */
export const agentsCommand: CommandModule = {
  name: 'agents',
  register(program, deps): void {
    const agents = program
      .command('agents')
      .description('List, show, add or remove the agents of a swarm')
      .addHelpText('after', '\nExamples:\n  genswarms agents list demo\n  genswarms agents add demo reviewer.yaml --incoming writer');
    registerList(agents, deps);
    registerShow(agents, deps);
    registerAddNode(agents, deps, AGENT);
    registerRemoveNode(agents, deps, AGENT);
  },
};
