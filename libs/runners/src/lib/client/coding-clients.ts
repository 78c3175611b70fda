/**
 * The published coding clients genswarms installs and runs (docs/clients.md): their npm packages and the
 * versions this release is tested with. One table: `genswarms clients install`, `clients list`, `doctor`
 * and the runners all read it.
 */

export type CodingClientName = 'codex' | 'claude' | 'opencode';

export interface CodingClientPackage {
  /** The npm package that carries the client (its native binary comes in a per-platform optional dependency). */
  readonly npmPackage: string;
  /** The version installed when none is named; the one docs/clients.md was measured with. */
  readonly pinnedVersion: string;
}

/** Pinned versions: change one here, re-run the client specs, and update docs/clients.md. */
export const CODING_CLIENTS: Readonly<Record<CodingClientName, CodingClientPackage>> = {
  codex: { npmPackage: '@openai/codex', pinnedVersion: '0.169.0' },
  claude: { npmPackage: '@anthropic-ai/claude-code', pinnedVersion: '2.1.328' },
  opencode: { npmPackage: 'opencode-ai', pinnedVersion: '1.18.33' },
};

/** The client names, in display order. */
export const CODING_CLIENT_NAMES: readonly CodingClientName[] = ['codex', 'claude', 'opencode'];

/** An exact semver version (no ranges, tags or paths): it becomes a directory name and an npm spec. */
const CLIENT_VERSION_RE =
  /^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})(-[0-9A-Za-z-]{1,32}(\.[0-9A-Za-z-]{1,32}){0,7})?$/;

export function isCodingClientName(value: string): value is CodingClientName {
  return (CODING_CLIENT_NAMES as readonly string[]).includes(value);
}

/** True for an exact version such as `0.169.0` or `1.2.3-beta.1`; never `latest`, `^1`, `..` or a path. */
export function isClientVersion(value: string): boolean {
  return CLIENT_VERSION_RE.test(value);
}
