import { lstat, unlink } from 'node:fs/promises';
import type { Forwarder } from '@genswarms/egress';
import type { OutputStream, RunnerHandle, SessionDescription, SessionHealth, TurnDelivery } from '../port';
import { OutputHub } from '../process/output-hub';
import type { DockerPort, LogFollow } from './docker-port';
import { LineSplitter } from './log-demux';

/** Default grace before the engine SIGKILLs a stopping container (ms). */
export const DOCKER_STOP_GRACE_MS = 3000;
/** After the container exits, how long we wait for the log stream to drain before reporting the exit (ms). */
const LOG_DRAIN_MAX_MS = 2000;

export interface DockerHandleInit {
  readonly port: DockerPort;
  readonly containerId: string;
  readonly description: SessionDescription;
  /** The env file we wrote (removed again at stop if the launcher never ran, and only while it is still ours). */
  /** Identity includes the birth time: a successor's env file may reuse the inode number. */
  readonly envFile?: { readonly path: string; readonly dev: bigint; readonly ino: bigint; readonly birthtimeNs: bigint };
  readonly forwarder?: Forwarder;
  /** 0: the whole log from the start; reattach passes "now". */
  readonly logsSinceSeconds: number;
}

/** A running (or finished) agent container: output from the log stream, exit from `wait`. */
export class DockerHandle implements RunnerHandle {
  private readonly hub = new OutputHub();
  private follow: LogFollow | undefined;
  private stopping: Promise<void> | undefined;
  private readonly splitters: Record<OutputStream, LineSplitter>;
  private logsEnded: () => void = () => undefined;

  constructor(private readonly init: DockerHandleInit) {
    this.splitters = {
      stdout: new LineSplitter((line) => this.emitLine('stdout', line)),
      stderr: new LineSplitter((line) => this.emitLine('stderr', line)),
    };
  }

  /** Subscribes to logs and to the exit; call once right after construction. */
  async attach(): Promise<void> {
    const { port, containerId } = this.init;
    const drained = new Promise<void>((resolve) => {
      this.logsEnded = resolve;
    });
    this.follow = await port.logs(containerId, (stream, chunk) => this.splitters[stream].push(chunk), {
      sinceSeconds: this.init.logsSinceSeconds,
      onEnd: () => {
        this.flush();
        this.logsEnded();
      },
    });
    port.wait(containerId).then(
      async (code) => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, LOG_DRAIN_MAX_MS)))]);
        clearTimeout(timer);
        this.flush();
        this.finish(code, null);
        void this.releaseHost().catch(() => undefined); // best-effort: on a natural exit; stop() runs it again and reports
      },
      () => this.finish(null, 'SIGKILL'), // expected: the wait fails when the container was removed underneath us
    );
  }

  describe(): SessionDescription {
    return this.init.description;
  }

  /** Headless client: the engine already wrote the inbox file. */
  async deliver(_turn: TurnDelivery): Promise<void> {}

  stop(opts?: { readonly graceMs?: number }): Promise<void> {
    this.stopping ??= this.stopNow(opts?.graceMs ?? DOCKER_STOP_GRACE_MS);
    return this.stopping;
  }

  private async stopNow(graceMs: number): Promise<void> {
    const { port, containerId } = this.init;
    try {
      await port.stop(containerId, Math.max(0, Math.ceil(graceMs / 1000)));
      await port.remove(containerId);
    } finally {
      this.follow?.close();
      this.flush();
      await this.releaseHost();
      this.finish(null, 'SIGTERM');
    }
  }

  /** Host-side leftovers of the session: the env file (if the launcher never ran) and the egress forwarder. */
  private async releaseHost(): Promise<void> {
    const envFile = this.init.envFile;
    if (envFile !== undefined) {
      const st = await lstat(envFile.path, { bigint: true }).catch(() => undefined); // expected: gone, the launcher consumed it
      const ours = st !== undefined && st.dev === envFile.dev && st.ino === envFile.ino && st.birthtimeNs === envFile.birthtimeNs;
      // best-effort: a file left behind is 0600 in the server's private state dir, removed with the agent's state
      if (ours) await unlink(envFile.path).catch(() => undefined);
    }
    await this.init.forwarder?.stop();
  }

  async health(): Promise<SessionHealth> {
    const state = await this.init.port.inspect(this.init.containerId);
    return state?.running === true ? 'running' : 'exited';
  }

  onOutput(listener: (stream: OutputStream, line: string) => void): () => void {
    return this.hub.addOutput(listener);
  }

  onExit(listener: (code: number | null, signal: string | null) => void): () => void {
    return this.hub.addExit(listener);
  }

  private emitLine(stream: OutputStream, line: string): void {
    this.hub.emitLine(stream, line);
  }

  private flush(): void {
    this.splitters.stdout.flush();
    this.splitters.stderr.flush();
  }

  private finish(code: number | null, signal: string | null): void {
    this.hub.emitExit(code, signal);
  }
}
