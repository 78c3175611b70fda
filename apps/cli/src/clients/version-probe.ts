import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { InstalledClient } from '@genswarms/runners';
import { oneLine } from '../cli/format';
import { firstLine, runProbe } from '../doctor/run-probe';

/** A `--version` run that has not finished by then counts as failed (OpenCode takes ~0.6 s here). */
export const CLIENT_VERSION_PROBE_TIMEOUT_MS = 15_000;

export type VersionProbe = { kind: 'ok'; line: string } | { kind: 'failed'; reason: string };

/**
 * Runs `<binary> --version` with a throwaway HOME and TMPDIR (the clients create state files in HOME on
 * any run; Codex refuses a HOME under TMPDIR) and their update checks off. Ok when it exits 0 and prints
 * the installed version.
 */
export async function probeClientVersion(client: InstalledClient): Promise<VersionProbe> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'genswarms-client-probe-'));
  try {
    mkdirSync(path.join(scratch, 'home'));
    mkdirSync(path.join(scratch, 'tmp'));
    const env = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LANG: 'C',
      HOME: path.join(scratch, 'home'),
      TMPDIR: path.join(scratch, 'tmp'),
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
    };
    const run = await runProbe(client.binary, ['--version'], CLIENT_VERSION_PROBE_TIMEOUT_MS, env);
    if (run.kind === 'error') return { kind: 'failed', reason: run.reason };
    const line = oneLine((run.output.split('\n').find((l) => l.includes(client.version)) ?? firstLine(run.output)).trim());
    if (run.code !== 0) return { kind: 'failed', reason: `--version exited ${String(run.code)}${line === '' ? '' : `: ${line}`}` };
    if (!line.includes(client.version)) return { kind: 'failed', reason: `--version printed "${line}", not ${client.version}` };
    return { kind: 'ok', line };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
