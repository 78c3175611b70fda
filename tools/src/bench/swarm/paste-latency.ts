import { spawn, spawnSync } from 'node:child_process';
import { chownSync, constants, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentName } from './backends';
import type { BenchServer } from './bench-server';
import { tmuxSocketIndexOf } from '@genswarms/runners';
import { quantile } from './quantile';
import { RawControl } from './raw-control';

/**
 * The FIFO the bench's `/bin/sh` client copies every line it reads into, when it exists (SH_CLIENT): its
 * path relative to the client's working directory (the agent's workspace).
 */
export const READS_FIFO = '.bench-reads';
const MKFIFO = '/usr/bin/mkfifo';
/** How long one pasted line may take to come back before the sample fails. */
const READ_TIMEOUT_MS = 30_000;
/** Pause between samples, so one delivery's work does not overlap the next. */
const GAP_MS = 20;

export interface PasteLatency {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export function latencyOf(samples: readonly number[]): PasteLatency {
  return { samples: samples.length, p50Ms: quantile(samples, 0.5), p99Ms: quantile(samples, 0.99) };
}

/**
 * The read end of a FIFO the client writes each line it read into: resolves `waitFor(token)` at the moment
 * a line holding `token` arrives. Opened read-write so that a writer closing it never ends the stream.
 */
export class FifoLines {
  private readonly sock: Socket;
  private buf = '';
  private readonly waiters = new Map<string, (at: number) => void>();

  private constructor(private readonly path: string) {
    const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    this.sock = new Socket({ fd, readable: true, writable: false });
    this.sock.on('data', (d: Buffer) => this.onData(d.toString('utf8')));
    this.sock.on('error', () => undefined); // expected: the FIFO is closed under us at the end
  }

  /** Makes the FIFO (mode 0600, owned like `ownerOf`, so an agent running under its own uid can write it) and opens it. */
  static create(path: string, ownerOf: string): FifoLines {
    const made = spawnSync(MKFIFO, ['-m', '0600', path], { shell: false, stdio: 'ignore' });
    if (made.status !== 0) throw new Error(`mkfifo ${path} failed`);
    const st = statSync(ownerOf);
    chownSync(path, st.uid, st.gid);
    return new FifoLines(path);
  }

  private onData(text: string): void {
    const at = performance.now();
    this.buf += text;
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) !== -1) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      for (const [token, resolve] of this.waiters) {
        if (!line.includes(token)) continue;
        this.waiters.delete(token);
        resolve(at);
      }
    }
  }

  /** performance.now() when a line holding `token` arrived. */
  waitFor(token: string, timeoutMs = READ_TIMEOUT_MS): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(token);
        reject(new Error(`no line with ${token} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.set(token, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  /** Unlinks the FIFO first (a client checking for it then finds none), then closes the read end. */
  close(): void {
    rmSync(this.path, { force: true });
    this.sock.destroy();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The hidden session every agent window is linked into (libs/runners CONTROL_SESSION). */
const CONTROL_SESSION = '_genswarms';
const TMUX_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

/** REST and raw samples of one run, taken alternately from the same panes. */
export interface PastePair {
  readonly rest: PasteLatency;
  /** A raw control-mode paste into the same pane on the swarm's own tmux server, interleaved with `rest`. */
  readonly raw?: PasteLatency;
  /** Raw pastes that failed or were not read within RAW_READ_TIMEOUT_MS (the baseline only: never fails the run). */
  readonly rawMissed?: number;
}

/** How long one raw paste of the baseline may take to be read before that sample is counted missed. */
const RAW_READ_TIMEOUT_MS = 5000;

/**
 * Bare control clients on the swarm's tmux servers (`tmux[-<k>].sock` of the bench home), attached to the
 * hidden control session, that paste a text into an agent's pane as the runner does (load-buffer +
 * paste-buffer -p) without the engine: the raw floor measured on the same server, at the same moment.
 */
class SwarmPaster {
  private readonly clients = new Map<string, RawControl>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'gs-bench-paste-'));
  private seq = 0;

  constructor(
    private readonly tmux: string,
    private readonly home: string,
  ) {}

  /** The socket whose server holds `=<swarm>:=<agent>` and the pane id there. */
  private async locate(swarm: string, agent: string): Promise<{ ctl: RawControl; pane: string } | undefined> {
    const dir = join(this.home, 'tmux');
    for (const name of readdirSync(dir).filter((n) => tmuxSocketIndexOf(n) !== undefined)) {
      const ctl = this.client(join(dir, name));
      const r = await ctl.run(`display-message -p -t "=${swarm}:=${agent}" "#{session_name} #{window_name} #{pane_id}"`);
      const [session, window, pane] = (r.lines[0] ?? '').split(' ');
      if (r.ok && session === swarm && window === agent && pane !== undefined) return { ctl, pane };
    }
    return undefined;
  }

  private client(sock: string): RawControl {
    let ctl = this.clients.get(sock);
    if (ctl === undefined) {
      const child = spawn(this.tmux, ['-S', sock, '-f', '/dev/null', '-C', 'attach-session', '-t', CONTROL_SESSION], {
        shell: false,
        stdio: ['pipe', 'pipe', 'ignore'],
        env: TMUX_ENV,
      });
      ctl = new RawControl(child).skipStartBlock();
      this.clients.set(sock, ctl);
    }
    return ctl;
  }

  /** Pastes the runner's turn text holding `token` into the agent's pane; resolves once both commands answered. */
  async paste(swarm: string, agent: string, token: string): Promise<boolean> {
    const where = await this.locate(swarm, agent);
    if (where === undefined) return false;
    const id = `bench-raw-${(this.seq += 1)}`;
    const file = join(this.dir, id);
    writeFileSync(file, `[genswarms] turn ${id} — message 1 from operator:\n${token}\nWhen finished, write your reply.\n`, { mode: 0o600 });
    const [loaded, pasted] = await Promise.all([
      where.ctl.command(`load-buffer -b ${id} ${file}`),
      where.ctl.command(`paste-buffer -d -p -b ${id} -t ${where.pane}`),
    ]);
    return loaded && pasted;
  }

  close(): void {
    for (const ctl of this.clients.values()) ctl.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * `POST …/agents/<a>/task` → the agent's pane reads the pasted task (the client copies the line to a FIFO):
 * one sample per agent (its turn is left running; the swarm is deleted next), agents spread over the swarm.
 * With `tmux`, each REST sample is followed by a raw paste into the same pane through a bare control client
 * on the swarm's own tmux server (SwarmPaster): the two latencies come from the same server and load.
 */
export async function measureRestPaste(server: BenchServer, swarm: string, n: number, samples: number, tmux?: string): Promise<PastePair> {
  const count = Math.min(n, samples);
  const out: number[] = [];
  const raw: number[] = [];
  let rawMissed = 0;
  const paster = tmux === undefined ? undefined : new SwarmPaster(tmux, server.home);
  try {
    for (let i = 0; i < count; i++) {
      const agent = agentName(Math.floor((i * n) / count));
      const workspace = join(server.home, 'workspaces', swarm, agent);
      const fifo = FifoLines.create(join(workspace, READS_FIFO), workspace);
      try {
        const token = `bench-paste-${i}-${Date.now().toString(36)}`;
        const read = fifo.waitFor(token);
        const t0 = performance.now();
        const [sent, at] = await Promise.all([server.api('POST', `/api/swarms/${swarm}/agents/${agent}/task`, { task: token }), read]);
        if (sent.status !== 200) throw new Error(`task to ${agent}: ${sent.status}`);
        out.push(at - t0);
        if (paster !== undefined) {
          await sleep(GAP_MS);
          const rawToken = `bench-raw-paste-${i}-${Date.now().toString(36)}`;
          const rawRead = fifo.waitFor(rawToken, RAW_READ_TIMEOUT_MS);
          const t1 = performance.now();
          try {
            const [ok, rawAt] = await Promise.all([paster.paste(swarm, agent, rawToken), rawRead]);
            if (ok) raw.push(rawAt - t1);
            else rawMissed += 1;
          } catch {
            // expected: now and then on a loaded box; the baseline is reported with its misses and the run goes on
            rawMissed += 1;
          }
        }
      } finally {
        fifo.close();
      }
      await sleep(GAP_MS);
    }
  } finally {
    paster?.close();
  }
  return { rest: latencyOf(out), ...(paster === undefined ? {} : { raw: latencyOf(raw), rawMissed }) };
}
