import type { Command } from 'commander';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { commaList } from '../cli/list-option';
import { callApi } from '../client/call';
import { apiPath } from '../client/paths';
import { loadSpecFile, resolveConfigPaths } from '../config/config-file';
import { agentTable } from '../view/agent-table';
import type { AgentStatusView } from '../view/agent-table';
import { terminalOf } from '../view/terminal';

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
        const body = (await callApi(deps, 'GET', apiPath('swarms', swarm, 'agents'), { json: opts.json === true })) as
          { agents?: unknown } | undefined;
        if (opts.json === true) return EXIT.ok;
        const list = Array.isArray(body?.agents) ? (body.agents as AgentStatusView[]) : [];
        const lines = list.length === 0 ? ['no agents'] : agentTable(terminalOf(deps.ctx.stdout, deps.ctx.env), list, Date.now());
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
        const body = await callApi(deps, 'GET', apiPath('swarms', swarm, 'agents', agent), { json: opts.json === true });
        if (opts.json === true) return EXIT.ok;
        for (const line of agentTable(terminalOf(deps.ctx.stdout, deps.ctx.env), [body as AgentStatusView], Date.now()))
          writeLine(deps.ctx.stdout, line);
        return EXIT.ok;
      }),
    );
}

function registerAdd(agents: Command, deps: CommandDeps): void {
  agents
    .command('add')
    .description('Add an agent to a running swarm from a JSON/YAML file holding one agent (docs/configuration.md)')
    .argument('<swarm>', 'swarm name')
    .argument('<file>', 'agent spec (.json, .yaml, .yml); relative workspace/skills resolve against its directory')
    .option('--connect <agents>', 'comma-separated targets this agent may send to (edges agent → each)')
    .option('--incoming <agents>', 'comma-separated senders that may send to it (edges each → agent)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  genswarms agents add demo reviewer.yaml\n  genswarms agents add demo reviewer.yaml --incoming writer --connect writer',
    )
    .action(
      deps.action(async (swarm: string, file: string, opts: { connect?: string; incoming?: string; json?: boolean }) => {
        const spec = await loadSpecFile(file, deps.ctx.cwd);
        const resolved = (resolveConfigPaths({ agents: [spec.value] }, spec.dir) as { agents: unknown[] }).agents[0] as Record<
          string,
          unknown
        >;
        const body = {
          ...resolved,
          ...(opts.connect === undefined ? {} : { connections: commaList(opts.connect) }),
          ...(opts.incoming === undefined ? {} : { incoming: commaList(opts.incoming) }),
        };
        const res = (await callApi(deps, 'POST', apiPath('swarms', swarm, 'agents'), { body, json: opts.json === true })) as
          { name?: unknown } | undefined;
        if (opts.json !== true) writeLine(deps.ctx.stdout, `added ${swarm}/${String(res?.name)}`);
        return EXIT.ok;
      }),
    );
}

function registerRemove(agents: Command, deps: CommandDeps): void {
  agents
    .command('remove')
    .description('Stop and remove an agent from a running swarm')
    .argument('<swarm>', 'swarm name')
    .argument('<agent>', 'agent name')
    .option('--json', JSON_HELP)
    .addHelpText('after', '\nExample:\n  genswarms agents remove demo reviewer')
    .action(
      deps.action(async (swarm: string, agent: string, opts: { json?: boolean }) => {
        await callApi(deps, 'DELETE', apiPath('swarms', swarm, 'agents', agent), { json: opts.json === true });
        if (opts.json !== true) writeLine(deps.ctx.stdout, `removed ${swarm}/${agent}`);
        return EXIT.ok;
      }),
    );
}

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
    registerAdd(agents, deps);
    registerRemove(agents, deps);
  },
};
