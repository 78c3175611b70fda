import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import type { CommandDeps, CommandModule } from '../cli/command-module';
import type { CliContext } from '../cli/context';
import { writeLine } from '../cli/context';
import { safeText } from '../cli/format';
import { CliError, EXIT } from '../cli/exit-codes';
import type { ExitCode } from '../cli/exit-codes';
import { findOnPath } from '../cli/which';
import { callOp } from '../client/call';
import { homePath } from '../daemon/home';
import { tmuxSocketIndexOf } from '@genswarms/runners';
import { followUntilInterrupted, joinSwarm } from '../stream/swarm-socket';
import { attachScreen, isLocalTuiAgent } from './attach-screen';

/** Variables a tmux client needs from the operator's terminal; nothing else is passed on. */
const TMUX_CLIENT_ENV: readonly string[] = ['TERM', 'LANG', 'LC_ALL', 'LC_CTYPE', 'HOME', 'USER', 'PATH', 'TMPDIR'];

/** docs/cli.md: `tmux -S <socket> attach-session [-r] -t =<swarm>:=<agent>` (argv, no shell). */
export function attachArgv(socket: string, swarm: string, agent: string, write: boolean): string[] {
  return ['-S', socket, 'attach-session', ...(write ? [] : ['-r']), '-t', `=${swarm}:=${agent}`];
}

/** The server's tmux sockets: `tmux.sock` (server 0) first, then `tmux-<k>.sock` by k (docs/runners.md "tmux servers"). */
export function tmuxSockets(home: string): string[] {
  const dir = path.join(home, 'tmux');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // expected: no tmux directory here means no tmux agent of this home
  }
  const index = (name: string): number => tmuxSocketIndexOf(name) ?? -1;
  return names
    .filter((n) => index(n) >= 0)
    .sort((a, b) => index(a) - index(b))
    .map((n) => path.join(dir, n))
    .filter((file) => {
      try {
        return lstatSync(file).isSocket();
      } catch {
        return false; // expected: removed while we looked
      }
    });
}

/** The socket whose tmux server holds window `=<swarm>:=<agent>` (`has-session` answers 0), else `fallback`. */
function socketOf(tmux: string, sockets: readonly string[], fallback: string, swarm: string, agent: string): string {
  for (const socket of sockets) {
    const r = spawnSync(tmux, ['-S', socket, 'has-session', '-t', `=${swarm}:=${agent}`], {
      shell: false,
      env: { PATH: '/usr/bin:/bin' },
      stdio: 'ignore',
      timeout: 5000,
    });
    if (r.status === 0) return socket;
  }
  return fallback;
}

function attachTmux(ctx: CliContext, swarm: string, agent: string, write: boolean): Promise<ExitCode> {
  const home = homePath(ctx.env, ctx.cwd);
  const sockets = tmuxSockets(home);
  const first = sockets[0];
  if (first === undefined)
    throw new CliError(
      'not_server_host',
      "the agent's tmux socket is not here: run attach on the server's host with its GENSWARMS_HOME",
      EXIT.failed,
    );
  const tmux = findOnPath('tmux', ctx.env['PATH']);
  if (tmux === undefined) throw new CliError('tmux_missing', 'tmux is not installed (apt-get install tmux)', EXIT.failed);
  const socket = socketOf(tmux, sockets, first, swarm, agent);
  const env: Record<string, string> = {};
  for (const key of TMUX_CLIENT_ENV) if (ctx.env[key] !== undefined) env[key] = ctx.env[key] ?? '';
  // The operator's own terminal gets the pane; captured streams (tests, pipes) get tmux's output.
  const inherit = ctx.stdout === process.stdout;
  const child = spawn(tmux, attachArgv(socket, swarm, agent, write), {
    shell: false,
    env,
    stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(ctx.stdout, { end: false });
  child.stderr?.pipe(ctx.stderr, { end: false });
  return new Promise((resolve) => {
    child.on('error', () => resolve(EXIT.failed));
    child.on('close', (code) => resolve(code === 0 ? EXIT.ok : EXIT.failed));
  });
}

async function attachHeadless(deps: CommandDeps, swarm: string, agent: string): Promise<ExitCode> {
  const onOutput = (p: { agent?: unknown; stream?: unknown; content?: unknown }): void => {
    if (p?.agent !== agent || typeof p.content !== 'string') return;
    // The engine pushes one output line per event, without its newline.
    const text = p.content.endsWith('\n') ? p.content : `${p.content}\n`;
    (p.stream === 'stderr' ? deps.ctx.stderr : deps.ctx.stdout).write(safeText(text));
  };
  const socket = await joinSwarm(deps.ctx, swarm, (s) => s.on('agent_output', onOutput));
  writeLine(deps.ctx.stderr, `streaming the output of ${swarm}/${agent} (headless agent; Ctrl-C to stop)`);
  await followUntilInterrupted(socket, deps.ctx.signal);
  return EXIT.ok;
}

/** `attach <swarm> <agent> [--write]`: a tmux agent's pane (read-only unless --write), else its output stream. */
export const attachCommand: CommandModule = {
  name: 'attach',
  register(program, deps): void {
    program
      .command('attach')
      .description("Watch an agent: a tmux agent's pane (read-only), a local TUI agent's screen, or a headless agent's output stream")
      .addHelpText(
        'after',
        '\nExamples:\n  genswarms attach demo coder            read-only view of its tmux pane (detach: C-b d)\n  genswarms attach demo coder --write    type into the pane',
      )
      .argument('<swarm>', 'swarm name')
      .argument('<agent>', 'agent name')
      .option('--write', 'tmux agents: attach read-write (you can type into the pane)')
      .action(
        deps.action(async (swarm: string, agent: string, opts: { write?: boolean }) => {
          const status = await callOp(deps, 'getAgent', { params: { s: swarm, a: agent } }, { json: false });
          if (status.backend.startsWith('tmux')) return attachTmux(deps.ctx, swarm, agent, opts.write === true);
          if (opts.write === true) throw new CliError('usage', '--write applies to tmux agents only', EXIT.usage);
          if (isLocalTuiAgent(status)) return attachScreen(deps, swarm, agent);
          return attachHeadless(deps, swarm, agent);
        }),
      );
  },
};
