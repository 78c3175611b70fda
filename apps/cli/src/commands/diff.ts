import type { Writable } from 'node:stream';
import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';

const COLOURS: readonly (readonly [RegExp, string])[] = [
  [/^(\+\+\+|---) /, '\x1b[1m'],
  [/^diff --git /, '\x1b[1m'],
  [/^@@ /, '\x1b[36m'],
  [/^\+/, '\x1b[32m'],
  [/^-/, '\x1b[31m'],
];

/**
 * One diff line for a terminal: the agent chose the file contents and names, so every control character but
 * a tab is shown as `\xNN` (no escape sequence of the agent's reaches the terminal), then coloured by kind.
 */
export function terminalDiffLine(line: string, colour: boolean): string {
  const safe = line.replace(/[\p{Cc}]/gu, (c) => (c === '\t' ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  if (!colour) return safe;
  const hit = COLOURS.find(([re]) => re.test(safe));
  return hit === undefined ? safe : `${hit[1]}${safe}\x1b[0m`;
}

function isTerminal(stream: Writable): boolean {
  return 'isTTY' in stream && stream.isTTY === true;
}

/** `diff <swarm> <agent> [--stat] [--json]`: the agent's git work from its clone's start, committed and not. */
export const diffCommand: CommandModule = {
  name: 'diff',
  register(program, deps): void {
    program
      .command('diff')
      .description("Unified diff of an agent's git work (committed and uncommitted) from its clone's start")
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .option('--stat', 'a diffstat instead of the diff')
      .option('--json', 'print the server response unchanged')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms diff demo dev\n  genswarms diff demo dev --stat\n  genswarms diff demo dev > work.patch',
      )
      .action(
        deps.action(async (swarm: string, agent: string, opts: { stat?: boolean; json?: boolean }) => {
          const args = { params: { s: swarm, a: agent }, query: { stat: opts.stat === true ? ('true' as const) : undefined } };
          const body = await callOp(deps, 'agentGitDiff', args, { json: opts.json === true });
          if (opts.json === true) return EXIT.ok;
          const out = deps.ctx.stdout;
          if (!isTerminal(out)) {
            out.write(body.diff); // a pipe gets the diff byte for byte (`git apply` takes it)
            return EXIT.ok;
          }
          const colour = deps.ctx.env['NO_COLOR'] === undefined;
          for (const line of body.diff.replace(/\n$/, '').split('\n')) writeLine(out, terminalDiffLine(line, colour));
          return EXIT.ok;
        }),
      );
  },
};
