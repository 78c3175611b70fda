import { spawn } from 'node:child_process';

/** A probe that has not finished by then counts as failed. */
export const PROBE_TIMEOUT_MS = 10_000;
const PROBE_MAX_BYTES = 65536;

export type ProbeRun = { kind: 'exited'; code: number | null; output: string } | { kind: 'error'; reason: string };

/** The environment a probe gets unless the caller builds another: a fixed PATH and the C locale. */
const PROBE_ENV: Readonly<Record<string, string>> = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C' };

/** Runs `file argv…` (no shell, `env` only — default PROBE_ENV, stdin closed), capturing ≤ 64 KiB of stdout+stderr. */
export function runProbe(
  file: string,
  argv: readonly string[],
  timeoutMs = PROBE_TIMEOUT_MS,
  env: Readonly<Record<string, string>> = PROBE_ENV,
): Promise<ProbeRun> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const child = spawn(file, [...argv], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const collect = (chunk: Buffer): void => {
      if (size < PROBE_MAX_BYTES) chunks.push(chunk.subarray(0, PROBE_MAX_BYTES - size));
      size += chunk.length;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ kind: 'error', reason: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ kind: 'exited', code, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** First non-empty line of a probe's output, for display. */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  );
}
