import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { oneLine } from '../cli/format';
import { callOp } from '../client/call';
import { renderTable, type Cell, type Column } from '../view/table';
import { terminalOf } from '../view/terminal';

/** `llm_usage` as the server answers it (docs/rest-api.md): calls forwarded and refused, tokens. */
interface Usage {
  readonly requests: number;
  readonly refused: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

interface SwarmUsage {
  readonly swarm: string;
  readonly llm_usage: Usage;
  readonly agents: ReadonlyArray<{ readonly name: string; readonly llm_usage: Usage }>;
}

const NUMBERS: readonly Column[] = [
  { header: 'REQUESTS', align: 'right' },
  { header: 'REFUSED', align: 'right' },
  { header: 'PROMPT', align: 'right' },
  { header: 'COMPLETION', align: 'right' },
  { header: 'TOTAL', align: 'right' },
];

function numberCells(u: Usage): Cell[] {
  return [u.requests, u.refused, u.prompt_tokens, u.completion_tokens, u.total_tokens].map((n) => ({ text: String(n) }));
}

/** One row per agent and one `(total)` row per swarm; the SWARM column only when several swarms are shown. */
export function usageRows(swarms: readonly SwarmUsage[]): { cols: Column[]; rows: Cell[][] } {
  const many = swarms.length > 1;
  const cols: Column[] = [...(many ? [{ header: 'SWARM', shrink: { min: 8 } }] : []), { header: 'AGENT', shrink: { min: 8 } }, ...NUMBERS];
  const rows: Cell[][] = [];
  for (const s of swarms) {
    const lead = (name: string, colour?: Cell['colour']): Cell[] => [
      ...(many ? [{ text: oneLine(s.swarm, 64) }] : []),
      colour === undefined ? { text: name } : { text: name, colour },
    ];
    for (const a of s.agents) rows.push([...lead(oneLine(a.name, 64)), ...numberCells(a.llm_usage)]);
    rows.push([...lead('(total)', 'bold'), ...numberCells(s.llm_usage)]);
  }
  return { cols, rows };
}

async function swarmUsage(deps: CommandDeps, swarm: string): Promise<SwarmUsage> {
  const body = await callOp(deps, 'getSwarm', { params: { s: swarm } }, { json: false });
  return { swarm: body.name, llm_usage: body.llm_usage, agents: body.agents.map((a) => ({ name: a.name, llm_usage: a.llm_usage })) };
}

/** `usage [<swarm>] [--json]`: LLM calls and tokens per agent through the metering egress (docs/cli.md). */
export const usageCommand: CommandModule = {
  name: 'usage',
  register(program, deps): void {
    program
      .command('usage')
      .description('LLM calls (forwarded, refused) and tokens per agent, through the metering egress of isolated agents')
      .argument('[swarm]', 'one swarm (default: every swarm the server knows)')
      .option('--json', 'print {swarms: [{swarm, llm_usage, agents: [{name, llm_usage}]}]}')
      .addHelpText('after', '\nExamples:\n  genswarms usage\n  genswarms usage demo --json')
      .action(
        deps.action(async (swarm: string | undefined, opts: { json?: boolean }) => {
          const names = swarm !== undefined ? [swarm] : (await callOp(deps, 'listSwarms', {}, { json: false })).swarms.map((s) => s.name);
          const swarms: SwarmUsage[] = [];
          for (const name of names) swarms.push(await swarmUsage(deps, name));
          if (opts.json === true) {
            writeLine(deps.ctx.stdout, JSON.stringify({ swarms }));
            return EXIT.ok;
          }
          if (swarms.length === 0) {
            writeLine(deps.ctx.stdout, 'no swarms');
            return EXIT.ok;
          }
          const { cols, rows } = usageRows(swarms);
          for (const line of renderTable(terminalOf(deps.ctx.stdout, deps.ctx.env), cols, rows)) writeLine(deps.ctx.stdout, line);
          return EXIT.ok;
        }),
      );
  },
};
