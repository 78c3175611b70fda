import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TmuxServer } from '@genswarms/runners';

/**
 * Benchmark for the tmux control-mode claim (docs/runners.md): one `tmux -C` client per orchestrator
 * versus a `tmux` process per operation, measured in the same run against the same server with
 * `panes` live panes. The operation is `display-message -p '#{pid}'` (a full round trip).
 */
export interface TmuxBenchOptions {
  readonly tmux: string;
  /** Live panes on the server while measuring. */
  readonly panes: number;
  /** Operations per method. */
  readonly ops: number;
}

export interface TmuxBenchResult {
  readonly panes: number;
  readonly ops: number;
  readonly controlModeMsPerOp: number;
  readonly processPerCallMsPerOp: number;
  /** processPerCall / controlMode. */
  readonly ratio: number;
}

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

/** Runs `tmux -S <socket> <args...>` once (argv only) and resolves its stdout. */
function runTmux(tmux: string, socket: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tmux, ['-S', socket, ...args], { shell: false, env: ENV, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`tmux exited ${code}`))));
  });
}

export async function runTmuxBench(opts: TmuxBenchOptions): Promise<TmuxBenchResult> {
  const home = await mkdtemp(join(tmpdir(), 'gs-bench-tmux-'));
  const server = await TmuxServer.open({ home, tmux: opts.tmux });
  try {
    for (let i = 0; i < opts.panes; i++) {
      await runTmux(opts.tmux, server.socketPath, ['new-window', '-d', '-t', '=_genswarms:', '--', '/bin/sleep', '3600']);
    }
    await server.ping(); // warm-up
    const t0 = performance.now();
    for (let i = 0; i < opts.ops; i++) await server.ping();
    const control = (performance.now() - t0) / opts.ops;
    await runTmux(opts.tmux, server.socketPath, ['display-message', '-p', '#{pid}']); // warm-up
    const t1 = performance.now();
    for (let i = 0; i < opts.ops; i++) await runTmux(opts.tmux, server.socketPath, ['display-message', '-p', '#{pid}']);
    const perCall = (performance.now() - t1) / opts.ops;
    return { panes: opts.panes, ops: opts.ops, controlModeMsPerOp: control, processPerCallMsPerOp: perCall, ratio: perCall / control };
  } finally {
    await server.kill();
    await rm(home, { recursive: true, force: true });
  }
}

/** One human-readable line per result. */
export function formatTmuxBench(r: TmuxBenchResult): string {
  return (
    `tmux bench: ${r.panes} panes, ${r.ops} ops each — control mode ${r.controlModeMsPerOp.toFixed(3)} ms/op, ` +
    `process per call ${r.processPerCallMsPerOp.toFixed(3)} ms/op, ratio ${r.ratio.toFixed(1)}x`
  );
}
