import type { Command } from 'commander';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import { writeLine } from '../cli/context';
import { EXIT } from '../cli/exit-codes';
import { callOp } from '../client/call';

interface OverlayEvent {
  seq?: unknown;
  op?: unknown;
  payload?: unknown;
  timestamp?: unknown;
}

/** Overlay events are redacted records the document leaves open (`unknown[]`); each is read field by field. */
function isOverlayEvent(e: unknown): e is OverlayEvent {
  return typeof e === 'object' && e !== null;
}

function registerClear(overlay: Command, deps: CommandDeps): void {
  overlay
    .command('clear')
    .description("Clear a swarm's overlay (runtime mutations); the seed config stays")
    .addHelpText('after', '\nExample:\n  genswarms overlay clear demo')
    .argument('<swarm>', 'swarm name')
    .option('--json', 'print the server response unchanged')
    .action(
      deps.action(async (swarm: string, opts: { json?: boolean }) => {
        await callOp(deps, 'clearOverlay', { params: { s: swarm } }, { json: opts.json === true });
        if (opts.json !== true) writeLine(deps.ctx.stdout, `cleared the overlay of ${swarm}`);
        return EXIT.ok;
      }),
    );
}

/** `overlay <swarm>` shows the redacted overlay events; `overlay clear <swarm>` clears them. */
export const overlayCommand: CommandModule = {
  name: 'overlay',
  register(program, deps): void {
    const overlay = program
      .command('overlay')
      .description('Show the runtime mutations (overlay) of a swarm; `overlay clear <swarm>` clears them')
      .addHelpText('after', '\nExamples:\n  genswarms overlay demo\n  genswarms overlay clear demo')
      .argument('<swarm>', 'swarm name')
      .option('--json', 'print the server response unchanged')
      .action(
        deps.action(async (swarm: string, opts: { json?: boolean }) => {
          const body = await callOp(deps, 'getOverlay', { params: { s: swarm } }, { json: opts.json === true });
          if (opts.json === true) return EXIT.ok;
          const events = body.events.filter(isOverlayEvent);
          if (events.length === 0) writeLine(deps.ctx.stdout, 'no overlay events');
          for (const e of events)
            writeLine(deps.ctx.stdout, `${String(e.seq)}  ${String(e.timestamp)}  ${String(e.op)}  ${JSON.stringify(e.payload ?? null)}`);
          return EXIT.ok;
        }),
      );
    registerClear(overlay, deps);
  },
};
