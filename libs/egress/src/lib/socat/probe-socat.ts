import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';

/** socat >= 1.7.4: certificate-name checks on IP SANs and automatic SNI (docs/security.md). */
export const SOCAT_MIN_VERSION: readonly [number, number, number] = [1, 7, 4];
/** Bound on `socat -V` output we read. */
const PROBE_MAX_BYTES = 65536;
/** A `socat -V` that has not answered by then is treated as unusable. */
export const SOCAT_PROBE_TIMEOUT_MS = 5000;

export type SocatProbe = { ok: true; version: string } | { ok: false; reason: string };

/** Parses `socat version X.Y.Z[.W]` from `socat -V` output; undefined when absent. */
export function parseSocatVersion(output: string): string | undefined {
  const match = /socat version (\d+\.\d+\.\d+(?:\.\d+)?)/.exec(output);
  return match?.[1];
}

/** True when dotted `version` is at least `min` (missing components count as 0). */
export function isVersionAtLeast(version: string, min: readonly number[]): boolean {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < min.length; i += 1) {
    const have = parts[i] ?? 0;
    const need = min[i] ?? 0;
    if (have !== need) return have > need;
  }
  return true;
}

/** Runs `<socat> -V` (argv only, empty environment) and checks the version. Never throws. */
export async function probeSocat(socatPath: string | undefined): Promise<SocatProbe> {
  if (socatPath === undefined) return { ok: false, reason: 'socat is not installed' };
  if (!isAbsolute(socatPath)) return { ok: false, reason: 'socat path must be absolute' };
  const run = await runVersion(socatPath);
  if (!run.ok) return run;
  const version = parseSocatVersion(run.output);
  if (version === undefined) return { ok: false, reason: 'could not read the socat version' };
  if (!isVersionAtLeast(version, SOCAT_MIN_VERSION)) {
    return { ok: false, reason: `socat ${version} is older than ${SOCAT_MIN_VERSION.join('.')}` };
  }
  return { ok: true, version };
}

function runVersion(socatPath: string): Promise<{ ok: true; output: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const child = spawn(socatPath, ['-V'], { shell: false, stdio: ['ignore', 'pipe', 'ignore'], env: {} });
    const timer = setTimeout(() => child.kill('SIGKILL'), SOCAT_PROBE_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (size < PROBE_MAX_BYTES) chunks.push(chunk.subarray(0, PROBE_MAX_BYTES - size));
      size += chunk.length;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `socat could not be run: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true, output: Buffer.concat(chunks).toString('utf8') });
      else resolve({ ok: false, reason: `socat -V failed (${signal ?? `exit ${String(code)}`})` });
    });
  });
}
