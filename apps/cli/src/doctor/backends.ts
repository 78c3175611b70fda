import type { Check } from './probes';

/** What each backend can really enforce on this host, from the checks (docs/security.md matrix). */
export interface BackendPosture {
  readonly backend: string;
  /** Network modes this host can run for the backend; empty = unavailable. */
  readonly networks: readonly string[];
  readonly note?: string;
}

const usable = (checks: readonly Check[], name: string): boolean => checks.some((c) => c.name === name && c.status === 'ok');

/** bwrap/docker give a boundary; `isolated` also needs socat ≥ 1.7.4; tmux panes need tmux and GNU xargs. */
export function backendPosture(checks: readonly Check[]): BackendPosture[] {
  const bwrap = usable(checks, 'bwrap');
  const docker = usable(checks, 'docker');
  const socat = usable(checks, 'socat');
  const tmux = usable(checks, 'tmux') && usable(checks, 'xargs');
  const apple = usable(checks, 'apple container');
  const isolated = socat ? ['isolated'] : [];
  const noSocat = socat ? undefined : 'isolated needs socat >= 1.7.4';
  const or = (ok: boolean, networks: string[], missing: string, note?: string): BackendPosture =>
    ok
      ? { backend: '', networks, ...(note === undefined ? {} : { note }) }
      : { backend: '', networks: [], note: `unavailable: ${missing}` };
  const rows: Array<[string, BackendPosture]> = [
    ['local', { backend: '', networks: ['open'], note: 'no boundary' }],
    ['bwrap', or(bwrap, ['open', 'none', ...isolated], 'needs a working bwrap', noSocat)],
    ['docker', or(docker, ['open', 'none', ...isolated, 'named'], 'needs a local Docker engine', noSocat)],
    ['tmux', or(tmux, ['open'], 'needs tmux and GNU xargs', 'no boundary')],
    ['tmux+bwrap', or(tmux && bwrap, ['open', 'none'], 'needs tmux, GNU xargs and bwrap')],
    ['tmux+docker', or(tmux && docker, ['open', 'none', 'named'], 'needs tmux, GNU xargs and a local Docker engine')],
    ['apple_container', or(apple, ['open', 'named'], "needs macOS and Apple's container CLI", 'not run on macOS yet')],
  ];
  return rows.map(([backend, p]) => ({ ...p, backend }));
}

/** `bwrap: open none isolated`, `local: open (no boundary)`, `docker: (unavailable: …)`. */
export function formatPosture(p: BackendPosture): string {
  const note = p.note === undefined ? '' : ` (${p.note})`;
  return `${p.backend}: ${p.networks.join(' ')}${p.networks.length === 0 ? note.trimStart() : note}`;
}

/**
 * How a coding client can run on this host: in a pane (a tmux pane on each tmux backend here, or a local pty) or
 * headless per turn (local, and each sandbox backend here) — docs/clients.md "As agents".
 */
export function clientModes(backends: readonly BackendPosture[]): string {
  const here = (names: readonly string[]): string[] =>
    names.filter((name) => backends.some((p) => p.backend === name && p.networks.length > 0));
  const pane = [...here(['tmux', 'tmux+bwrap', 'tmux+docker']), 'local (pty)'];
  const headless = here(['local', 'bwrap', 'docker']);
  return `modes: pane on ${pane.join(', ')}; headless on ${headless.join(', ')}`;
}
