import { z } from 'zod';

/** The three network keywords (docs/security.md); matched case-insensitively, stored lower-cased. */
export const NETWORK_KEYWORDS = ['open', 'none', 'isolated'] as const;
export type NetworkKeyword = (typeof NETWORK_KEYWORDS)[number];
/** A Docker network name. */
export const NAMED_NETWORK_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

/** Lower-cases the keywords; any other string is returned unchanged. */
export function normalizeNetwork(raw: string): string {
  const lower = raw.toLowerCase();
  return (NETWORK_KEYWORDS as readonly string[]).includes(lower) ? lower : raw;
}

function networkProblem(raw: string): string | null {
  if (raw.toLowerCase() === 'host') return 'network "host" is refused: it puts the agent in the host namespace';
  if ((NETWORK_KEYWORDS as readonly string[]).includes(raw.toLowerCase())) return null;
  if (!NAMED_NETWORK_RE.test(raw)) return 'must be open, none, isolated or a Docker network name';
  return null;
}

/** `network`: a keyword (any case, lower-cased on output) or a Docker network name; never `host`. */
export const NetworkSchema = z
  .string()
  .superRefine((raw, ctx) => {
    const problem = networkProblem(raw);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(normalizeNetwork)
  .describe('open (default) | none | isolated | a Docker network name; "host" is refused');

/** Where an agent's process runs, for the network matrix. */
export interface NetworkPlacement {
  readonly backend: string;
  readonly runner?: string;
}

function networkClass(network: string): 'open' | 'none' | 'isolated' | 'named' {
  const n = normalizeNetwork(network);
  return n === 'open' || n === 'none' || n === 'isolated' ? n : 'named';
}

const MATRIX: Readonly<Record<string, readonly string[]>> = {
  local: ['open'],
  bwrap: ['open', 'none', 'isolated'],
  docker: ['open', 'none', 'isolated', 'named'],
  'tmux:none': ['open'],
  'tmux:bwrap': ['open', 'none'],
  'tmux:docker': ['open', 'none', 'named'],
  ssh: ['open'],
  apple_container: ['open', 'named'],
  swarm: ['open', 'none', 'isolated', 'named'],
};

/** docs/security.md matrix. `mock` accepts (and ignores) every network. Unknown backends: refused. */
export function isNetworkSupported(place: NetworkPlacement, network: string): boolean {
  if (place.backend === 'mock') return true;
  const key = place.backend === 'tmux' ? `tmux:${place.runner ?? 'none'}` : place.backend;
  const allowed = Object.prototype.hasOwnProperty.call(MATRIX, key) ? MATRIX[key] : undefined;
  return allowed !== undefined && allowed.includes(networkClass(network));
}
