import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const FIXTURES = join(__dirname, '..', 'fixtures');

/** A running fixture process; `stop()` closes its stdin and resolves with everything it printed. */
export interface Harness {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything printed so far. */
  output(): string;
  stop(): Promise<string>;
}

/** Starts `node <fixture> ...args` (argv array, no shell) and waits for its "ready" line. */
export async function startHarness(fixture: string, args: readonly string[]): Promise<Harness> {
  const child = spawn(process.execPath, [join(FIXTURES, fixture), ...args], { shell: false, stdio: ['pipe', 'pipe', 'pipe'], env: {} });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (): void => {
      if (out.includes('ready\n')) resolve();
    };
    child.stdout.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`harness exited early (${String(code)}): ${err}`)));
  });
  return {
    child,
    output: () => out,
    stop: async () => {
      child.stdin.end();
      await exited;
      return out;
    },
  };
}
