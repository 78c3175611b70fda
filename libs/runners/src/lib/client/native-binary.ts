import { readFileSync } from 'node:fs';

/**
 * Where each client's native binary sits inside its npm install. The packages' own launchers (`bin/*.exe`
 * placeholders overwritten by a postinstall script, or a node wrapper) are bypassed: installs run with
 * `--ignore-scripts`, so genswarms finds the binary in the per-platform package itself.
 */

/** The host as the clients' packages name platforms. */
export interface ClientPlatform {
  readonly os: 'linux' | 'darwin';
  readonly arch: 'x64' | 'arm64';
  /** Linux only: musl libc (Alpine) instead of glibc. */
  readonly musl: boolean;
  /** x64 only: the CPU has AVX2 (OpenCode ships a `-baseline` build for CPUs without it). */
  readonly avx2: boolean;
}

const CODEX_TRIPLES: Readonly<Record<string, string>> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/**
 * Paths relative to the install's `node_modules`, most preferred first; the first that exists is used.
 * Pure: the platform is passed in.
 */
export function nativeBinaryCandidates(name: 'codex' | 'claude' | 'opencode', p: ClientPlatform): readonly string[] {
  const key = `${p.os}-${p.arch}`;
  const musl = p.os === 'linux' && p.musl ? '-musl' : '';
  switch (name) {
    case 'codex': {
      const triple = CODEX_TRIPLES[key];
      return triple === undefined ? [] : [`@openai/codex-${key}/vendor/${triple}/bin/codex`];
    }
    case 'claude':
      return [`@anthropic-ai/claude-code-${key}${musl}/claude`];
    case 'opencode': {
      const fast = `opencode-${key}${musl}`;
      const baseline = `opencode-${key}-baseline${musl}`;
      const builds = p.arch === 'x64' ? (p.avx2 ? [fast, baseline] : [baseline, fast]) : [fast];
      return builds.map((b) => `${b}/bin/opencode`);
    }
  }
}

/** This host's platform, or undefined where no client ships a binary (Windows, 32-bit, …). */
export function hostClientPlatform(readCpuInfo: () => string = () => readFileSync('/proc/cpuinfo', 'utf8')): ClientPlatform | undefined {
  const os = process.platform === 'linux' || process.platform === 'darwin' ? process.platform : undefined;
  const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : undefined;
  if (os === undefined || arch === undefined) return undefined;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  const musl = os === 'linux' && report.header?.glibcVersionRuntime === undefined;
  return { os, arch, musl, avx2: arch === 'x64' && os === 'linux' ? hasAvx2(readCpuInfo) : arch === 'x64' };
}

function hasAvx2(readCpuInfo: () => string): boolean {
  try {
    return /(^|\s)avx2(\s|$)/m.test(readCpuInfo());
  } catch {
    return false; // expected: no /proc (a restricted sandbox) — the baseline build runs everywhere
  }
}
