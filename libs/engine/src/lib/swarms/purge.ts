/**
 * Deletes a swarm's default workspaces (git workspace clones among them), state, manifest and git dirs
 * (`<home>/workspaces/<swarm>`, `<home>/state/<swarm>`, `<home>/manifests/<swarm>`, `<home>/git/<swarm>`),
 * never a workspace the operator named (docs/rest-api.md). Runs BEFORE the store forgets the swarm: the
 * named workspaces are read from it, resolved exactly as start resolved them, and compared by real path.
 */
import { gateStart, isRecord } from '@genswarms/ir-gate';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { defaultWorkspace } from '../agents/launch-spec';
import type { Store } from '../store/store';
import { toOverlayEvents } from './helpers';

/** What purge reads: the stored swarm (seed config, base dir, overlay, sessions) and the engine's paths. */
export interface PurgePorts {
  readonly store: Pick<Store, 'getSwarm' | 'listOverlay' | 'listSessions'>;
  readonly paths: { readonly home: string; readonly configDir: string };
}

/**
 * `fallbackSeed` is the running swarm's seed config, used only when the store has no row. When the named
 * workspaces cannot be known (the stored config no longer passes the gate), `<home>/workspaces/<swarm>` is
 * kept whole (fail closed: default workspaces left over beat an operator's workspace deleted).
 */
export async function purgeSwarmFiles(ports: PurgePorts, swarm: string, fallbackSeed: unknown): Promise<void> {
  const named = await namedWorkspaces(ports, swarm, fallbackSeed);
  const { home } = ports.paths;
  if (named !== null) await purgeDir(path.join(home, 'workspaces', swarm), named);
  await purgeDir(path.join(home, 'state', swarm), named ?? []);
  await purgeDir(path.join(home, 'manifests', swarm), named ?? []); // argv manifests go at stop; their agent dirs stayed
  await purgeDir(path.join(home, 'git', swarm), []); // git workspaces: base objects, mirrors, clone records (the clones are default workspaces)
}

/**
 * Every workspace the operator named for this swarm, lexically and by real path: the seed's and the effective
 * config's (seed ⊕ overlay, relative paths resolved by the gate against the base dir start used: the config
 * file's directory, or GENSWARMS_SWARM_CONFIG_DIR for inline configs), every runtime add_agent's, and each
 * real workspace the engine recorded at launch that is not the agent's default. Null when unknowable.
 */
async function namedWorkspaces(ports: PurgePorts, swarm: string, fallbackSeed: unknown): Promise<string[] | null> {
  const { store, paths } = ports;
  const row = await store.getSwarm(swarm);
  const baseDir = row?.baseDir ?? paths.configDir;
  const overlay = toOverlayEvents(await store.listOverlay(swarm));
  const seed = gateStart(row?.config ?? fallbackSeed, { baseDir });
  if (seed.kind === 'refused') return null;
  const effective = gateStart(row?.config ?? fallbackSeed, { baseDir, overlayEvents: overlay });
  const written = [...seed.config.agents, ...(effective.kind === 'ok' ? effective.effective.agents : [])].map((a) => a.workspace);
  // an agent added and removed again at runtime is in no config any more; its IR payload keeps `config.workspace`
  for (const e of overlay)
    if (e.op === 'add_agent' && isRecord(e.payload['config'])) written.push(stringOrUndefined(e.payload['config']['workspace']));
  for (const s of await store.listSessions(swarm)) {
    if (s.workspace !== null && s.workspace !== defaultWorkspace(paths.home, swarm, s.agent)) written.push(s.workspace);
  }
  const named = written.filter((w): w is string => typeof w === 'string').map((w) => path.resolve(baseDir, w));
  return [...new Set([...named, ...(await Promise.all(named.map(realOrSelf)))])];
}

/** Removes `dir` (a real directory, never a link), or only its entries that hold no named workspace. */
async function purgeDir(dir: string, named: readonly string[]): Promise<void> {
  // expected: no such directory (or not a directory, e.g. a link): nothing of the swarm's to purge there
  const st = await fsp.lstat(dir).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) return;
  if (!named.some((w) => overlaps(dir, w))) {
    await fsp.rm(dir, { recursive: true, force: true });
    return;
  }
  for (const entry of await fsp.readdir(dir)) {
    const child = path.join(dir, entry);
    if (!named.some((w) => overlaps(child, w))) await fsp.rm(child, { recursive: true, force: true });
  }
}

/**
 * After a purge: the swarm's agent ids are released (docs/security.md "One identity per agent"). Only an agent
 * whose workspace was its default one (now deleted, with its state dir) left no file behind, so only its id may
 * be given to another agent later; an id whose agent worked in a workspace the operator named stays retired
 * (files there still belong to it).
 */
export async function releaseAgentIds(
  store: Pick<Store, 'listSessions' | 'agentIds'>,
  home: string,
  swarm: string,
  at: string,
): Promise<void> {
  const reusable = new Set<string>();
  for (const s of await store.listSessions(swarm)) {
    if (s.workspace === null || s.workspace === defaultWorkspace(home, swarm, s.agent)) reusable.add(s.agent);
  }
  store.agentIds.release(swarm, reusable, at);
}

function stringOrUndefined(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

async function realOrSelf(p: string): Promise<string> {
  // expected: a named workspace that does not exist (yet) is compared as written
  return fsp.realpath(p).catch(() => p);
}

/** True when one path equals or contains the other (`..x` is a name, not a parent). */
function overlaps(a: string, b: string): boolean {
  const inside = (parent: string, child: string): boolean => {
    const rel = path.relative(parent, child);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
  };
  return inside(a, b) || inside(b, a);
}
