import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** A bare `tmux -C` client: one line per command, answered by a %begin/%end (or %error) block. */
export class RawControl {
  private pending: ((ok: boolean, lines: string[]) => void)[] = [];
  private buf = '';
  private inBlock = false;
  private lines: string[] = [];

  constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    child.stdout.on('data', (d: Buffer) => {
      this.buf += d.toString('utf8');
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) !== -1) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (line.startsWith('%begin')) {
          this.inBlock = true;
          this.lines = [];
        } else if (this.inBlock && (line.startsWith('%end') || line.startsWith('%error'))) {
          this.inBlock = false;
          this.pending.shift()?.(line.startsWith('%end'), this.lines);
        } else if (this.inBlock) this.lines.push(line);
      }
    });
  }

  /** The block tmux answers the client's own start command with (e.g. `attach-session`) is not a reply to ours. */
  skipStartBlock(): this {
    this.pending.unshift(() => undefined);
    return this;
  }

  command(line: string): Promise<boolean> {
    return this.run(line).then((r) => r.ok);
  }

  /** One command and its output lines. */
  run(line: string): Promise<{ ok: boolean; lines: string[] }> {
    return new Promise((resolve) => {
      this.pending.push((ok, lines) => resolve({ ok, lines }));
      this.child.stdin.write(`${line}\n`);
    });
  }

  /** Ends the client (stdin closed: tmux detaches it); the server and its sessions stay. */
  close(): void {
    this.child.stdin.end();
    setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
  }
}
