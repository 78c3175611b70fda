/**
 * Where the swarm backend's engines are (docs/runners.md "swarm"): the manager at `DOCKER_HOST` (a local unix
 * socket, or tcp:// WITH client certificates), and one engine per node for the workspace traffic (the node map,
 * `GENSWARMS_SWARM_NODES`). A remote engine without TLS is refused; a node absent from the map is never guessed.
 */
import { promises as fsp } from 'node:fs';
import type DockerClient from 'dockerode';
import { RunnerError } from '../errors/runner-error';
import { loadDockerode } from '../docker/dockerode-port';
import { DEFAULT_DOCKER_SOCKET } from '../docker/engine-host';

/** Client-certificate files of a TLS engine (PEM paths, read at connect). */
export interface EngineTls {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** One engine: `unix:///abs/socket` or `tcp://host:port` (the latter only with `tls`). */
export interface EngineEndpoint {
  readonly host: string;
  readonly tls?: EngineTls;
}

/** A parsed endpoint: a local socket path, or a TLS tcp address. */
export type EngineAddress =
  | { readonly kind: 'socket'; readonly path: string }
  | { readonly kind: 'tls'; readonly host: string; readonly port: number; readonly tls: EngineTls };

/** Cap on the node map file (a map of a few hundred nodes is a few tens of KB). */
export const SWARM_NODES_MAX_BYTES = 262_144;
const NODE_ID_RE = /^[a-z0-9]{1,64}$/;
const TCP_RE = /^tcp:\/\/([A-Za-z0-9.-]{1,253}|\[[0-9a-fA-F:]{2,45}\]):([0-9]{1,5})$/;

/**
 * Plan-time check of an engine address: unset → the local socket; `unix:///abs` → that socket; `tcp://h:p` with
 * `tls` → a TLS engine; tcp without tls → `remote_engine_insecure`; anything else → `validation_failed`.
 */
export function parseEngineEndpoint(ep: EngineEndpoint | undefined, agent?: string): EngineAddress {
  const who = agent === undefined ? {} : { agent };
  const host = ep?.host.trim() ?? '';
  if (host === '') return { kind: 'socket', path: DEFAULT_DOCKER_SOCKET };
  const unix = /^unix:\/\/(\/[^\0]*)$/.exec(host);
  if (unix?.[1] !== undefined) return { kind: 'socket', path: unix[1] };
  const tcp = TCP_RE.exec(host);
  if (tcp?.[1] !== undefined && tcp[2] !== undefined) {
    if (ep?.tls === undefined) {
      throw new RunnerError('remote_engine_insecure', 'a tcp:// engine is accepted only with TLS client certificates (ca, cert, key)', who);
    }
    const port = Number(tcp[2]);
    if (port < 1 || port > 65535) throw new RunnerError('validation_failed', 'engine port out of range', who);
    return { kind: 'tls', host: tcp[1].replace(/^\[|\]$/g, ''), port, tls: ep.tls };
  }
  throw new RunnerError('validation_failed', 'an engine address must be unix:///path or tcp://host:port (with TLS)', who);
}

/** A dockerode client for an engine address (TLS material read from its 0600 files now, never logged). */
export async function dockerClientFor(addr: EngineAddress): Promise<DockerClient> {
  const Docker = loadDockerode();
  if (addr.kind === 'socket') return new Docker({ socketPath: addr.path });
  const [ca, cert, key] = await Promise.all([addr.tls.ca, addr.tls.cert, addr.tls.key].map((p) => fsp.readFile(p)));
  return new Docker({ protocol: 'https', host: addr.host, port: addr.port, ca, cert, key });
}

/** The node map as loaded (docs/configuration.md "swarm"): loaders return a union, never null. */
export type SwarmNodesLoad =
  | { readonly kind: 'ok'; readonly nodes: ReadonlyMap<string, EngineAddress> }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'invalid'; readonly reason: string };

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function parseTls(raw: unknown): EngineTls | undefined | 'invalid' {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) return 'invalid';
  const { ca, cert, key } = raw;
  const abs = (p: unknown): p is string => typeof p === 'string' && p.startsWith('/') && !p.includes('\0');
  return abs(ca) && abs(cert) && abs(key) ? { ca, cert, key } : 'invalid';
}

/** Parses the node map JSON `{ "<nodeId>": { "host": "...", "tls"?: {ca, cert, key} } }`; reasons name keys, never values. */
export function parseSwarmNodes(text: string): SwarmNodesLoad {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // expected: a malformed map is reported as invalid (the parser's message may quote values)
    return { kind: 'invalid', reason: 'not JSON' };
  }
  if (!isRecord(raw)) return { kind: 'invalid', reason: 'not an object of node ids' };
  const nodes = new Map<string, EngineAddress>();
  for (const [id, entry] of Object.entries(raw)) {
    if (!NODE_ID_RE.test(id)) return { kind: 'invalid', reason: 'a key is not a node id' };
    if (!isRecord(entry) || typeof entry['host'] !== 'string') return { kind: 'invalid', reason: `${id}: host missing` };
    const tls = parseTls(entry['tls']);
    if (tls === 'invalid') return { kind: 'invalid', reason: `${id}: tls must be {ca, cert, key} absolute paths` };
    try {
      nodes.set(id, parseEngineEndpoint({ host: entry['host'], ...(tls === undefined ? {} : { tls }) }));
    } catch (e) {
      return { kind: 'invalid', reason: `${id}: ${e instanceof RunnerError ? e.code : 'invalid host'}` };
    }
  }
  return { kind: 'ok', nodes };
}

/** Reads the node map file (bounded). */
export async function loadSwarmNodes(file: string | undefined): Promise<SwarmNodesLoad> {
  if (file === undefined || file.trim() === '') return { kind: 'missing' };
  let text: string;
  try {
    const st = await fsp.lstat(file);
    if (!st.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (st.size > SWARM_NODES_MAX_BYTES) return { kind: 'unreadable', reason: 'too large' };
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable', reason: code ?? 'read failed' };
  }
  return parseSwarmNodes(text);
}
