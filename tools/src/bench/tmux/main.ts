/** `node tools/dist/bench/tmux/main.js [--panes N] [--ops N] [--tmux /usr/bin/tmux]` (after `npx nx build tools`). */
import { formatTmuxBench, runTmuxBench } from './bench-tmux';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

async function main(): Promise<void> {
  const panes = Number(flag('--panes', '50'));
  const ops = Number(flag('--ops', '500'));
  const tmux = flag('--tmux', '/usr/bin/tmux');
  if (!Number.isInteger(panes) || panes < 0 || !Number.isInteger(ops) || ops < 1) {
    process.stderr.write('usage: main.js [--panes N>=0] [--ops N>=1] [--tmux /abs/tmux]\n');
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${formatTmuxBench(await runTmuxBench({ tmux, panes, ops }))}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
