import type { CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { readTextArg } from '../cli/args';
import { callOp } from '../client/call';

/**
 * `msg <swarm> <from> <to> <text...>`: POST /message. Fire-and-forget: the server answers 200 whether
 * or not the topology allows the route (a denied route shows up as an `invalid_route` event).
 */
export const msgCommand: CommandModule = {
  name: 'msg',
  register(program, deps): void {
    program
      .command('msg')
      .description('Route a message from one node to another (topology-gated; text "-" reads stdin)')
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms msg demo writer critic please review the draft\n  cat notes.md | genswarms msg demo writer critic -',
      )
      .argument('<swarm>', 'swarm name')
      .argument('<from>', 'sender (agent or object)')
      .argument('<to>', 'target (agent or object)')
      .argument('<text...>', 'the message; a single "-" reads it from stdin')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, from: string, to: string, words: string[], opts: { json?: boolean }) => {
          const content = await readTextArg(deps.ctx, words, 'the message');
          await callOp(deps, 'sendMessage', { params: { s: swarm }, body: { from, to, content } }, { json: opts.json === true });
          if (opts.json !== true)
            writeLine(deps.ctx.stdout, `routed ${from} -> ${to} in ${swarm} (see genswarms events -s ${swarm} if it was denied)`);
          return EXIT.ok;
        }),
      );
  },
};
