import { spawnSync } from 'node:child_process';
import { chownSync, constants, openSync, rmSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { agentName } from './backends';
import type { BenchServer } from './bench-server';
import { quantile } from './quantile';

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
  waitFor(token: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(token);
        reject(new Error(`no line with ${token} within ${READ_TIMEOUT_MS} ms`));
      }, READ_TIMEOUT_MS);
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

/**
 * `POST …/agents/<a>/task` → the agent's pane reads the pasted task (the client copies the line to a FIFO):
 * one sample per agent (its turn is left running; the swarm is deleted next), agents spread over the swarm.
 */
export async function measureRestPaste(server: BenchServer, swarm: string, n: number, samples: number): Promise<PasteLatency> {
  const count = Math.min(n, samples);
  const out: number[] = [];
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
    } finally {
      fifo.close();
    }
    await sleep(GAP_MS);
  }
  return latencyOf(out);
}
