import { spawn } from 'node-pty';

/** What a command printed on a real pseudo-terminal (isatty true, a fixed width), and its exit code. */
export interface PtyRun {
  readonly code: number;
  readonly output: string;
}

/** A pty session the test can wait on and interrupt (Ctrl-C is sent as the terminal's ETX byte). */
export interface LivePty {
  output(): string;
  waitFor(re: RegExp): Promise<void>;
  interrupt(): void;
  readonly done: Promise<PtyRun>;
}

/** Runs `node <argv>` on a pty of `cols` columns with exactly `env`. */
export function ptyRun(argv: readonly string[], env: Record<string, string>, cols: number): LivePty {
  const term = spawn(process.execPath, [...argv], { name: 'xterm-256color', cols, rows: 40, env: { TERM: 'xterm-256color', ...env } });
  let out = '';
  const waiters: Array<{ re: RegExp; resolve: () => void }> = [];
  term.onData((d) => {
    out += d;
    for (const w of [...waiters])
      if (w.re.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  const done = new Promise<PtyRun>((resolve) => term.onExit(({ exitCode }) => resolve({ code: exitCode, output: out })));
  return {
    output: () => out,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        if (re.test(out)) return resolve();
        waiters.push({ re, resolve });
        void done.then(() => (re.test(out) ? resolve() : reject(new Error(`exited before output matched ${re}: ${JSON.stringify(out)}`))));
      }),
    interrupt: () => term.write('\u0003'),
    done,
  };
}

/** The text a user sees: SGR colour and the clear/home sequences removed, CR-LF as LF. */
export function visible(raw: string): string {
  // eslint-disable-next-line no-control-regex -- removing terminal escapes is the point
  return raw.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r\n/g, '\n');
}
