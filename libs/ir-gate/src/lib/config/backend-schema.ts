import { z } from 'zod';
import { parseSshTarget } from './ssh-target';

/** Backend types a config may name (docs/configuration.md). */
export const BACKEND_TYPES = ['local', 'bwrap', 'docker', 'tmux', 'mock', 'ssh', 'apple_container', 'swarm'] as const;
export type BackendType = (typeof BACKEND_TYPES)[number];
/** Where a tmux pane's client runs. */
export const TMUX_RUNNERS = ['none', 'bwrap', 'docker'] as const;
/** Image used by a bare `"docker"` backend (docs/ir.md). */
export const DEFAULT_DOCKER_IMAGE = 'genswarms/agent:latest';
/** Default backend when `backend` is absent. */
export const DEFAULT_BACKEND: BackendType = 'bwrap';

const NoNulString = z
  .string()
  .min(1)
  .refine((s) => !s.includes('\0'), 'must not contain NUL');

export const BackendObjectSchema = z
  .strictObject({
    type: z.enum(BACKEND_TYPES).describe('Backend type'),
    image: NoNulString.optional().describe('Container image (docker, tmux+docker, apple_container, swarm)'),
    runner: z.enum(TMUX_RUNNERS).optional().describe('tmux only: where the pane client runs (default none)'),
    host: NoNulString.optional().describe('ssh only: user@host'),
    opts: z.record(z.string(), z.unknown()).optional().describe('Backend options (free-form)'),
  })
  .describe('Backend, object form');

export const BackendSchema = z
  .union([z.enum(BACKEND_TYPES), BackendObjectSchema])
  .describe('Backend: a type name or {type, image?, runner?, host?, opts?}; default bwrap');

export type BackendInput = z.infer<typeof BackendSchema>;

/** Normalised view of either backend form. */
export interface BackendView {
  readonly type: BackendType;
  readonly image?: string;
  readonly runner?: string;
  readonly host?: string;
  readonly opts?: Record<string, unknown>;
}

/** Reads a parsed backend (string or object form; absent = default). */
export function viewBackend(backend: BackendInput | undefined): BackendView {
  if (backend === undefined) return { type: DEFAULT_BACKEND };
  return typeof backend === 'string' ? { type: backend } : backend;
}

/** Cross-field backend rules (docs/configuration.md); returns messages keyed by the offending field. */
export function backendProblems(b: BackendView): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  if (b.runner !== undefined && b.type !== 'tmux') out.push({ field: 'runner', message: 'runner is only allowed with tmux' });
  const imageOk = b.type === 'docker' || b.type === 'apple_container' || b.type === 'swarm' || (b.type === 'tmux' && b.runner === 'docker');
  if (b.image !== undefined && !imageOk) {
    out.push({ field: 'image', message: 'image is only allowed with docker, tmux+docker, apple_container or swarm' });
  }
  if (b.type === 'swarm' && b.image === undefined) out.push({ field: 'image', message: 'image is required with swarm' });
  if (b.type === 'swarm' && b.opts !== undefined) out.push(...swarmOptsProblems(b.opts));
  if (b.type === 'ssh' && b.host === undefined) out.push({ field: 'host', message: 'host is required with ssh' });
  if (b.type === 'ssh' && b.host !== undefined) {
    const target = parseSshTarget(b.host);
    if (target.kind === 'invalid') out.push({ field: 'host', message: `host ${target.reason}` });
  }
  if (b.type !== 'ssh' && b.host !== undefined) out.push({ field: 'host', message: 'host is only allowed with ssh' });
  if (b.opts !== undefined && Object.prototype.hasOwnProperty.call(b.opts, 'runner')) {
    out.push({ field: 'opts.runner', message: 'opts.runner is reserved; use backend.runner' });
  }
  return out;
}

/** Placement constraints per swarm agent (docs/configuration.md "swarm"). */
export const SWARM_CONSTRAINTS_MAX = 16;
/** `node.labels.x==y`, `node.role!=manager`, `node.id==…`: one comparison, no NUL or newline. */
const SWARM_CONSTRAINT_RE = /^[A-Za-z0-9_.-]{1,128}\s*(==|!=)\s*[A-Za-z0-9_.:/-]{1,128}$/;
const SWARM_OPT_KEYS: readonly string[] = ['constraints', 'replicas', 'node'];

/** `backend.opts` of a swarm agent: constraints (strings), replicas (1 only), node (a node id). */
function swarmOptsProblems(opts: Record<string, unknown>): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  for (const key of Object.keys(opts)) {
    if (!SWARM_OPT_KEYS.includes(key) && key !== 'runner') out.push({ field: `opts.${key}`, message: `unknown swarm option ${key}` });
  }
  const c = opts['constraints'];
  if (c !== undefined) {
    const ok =
      Array.isArray(c) && c.length <= SWARM_CONSTRAINTS_MAX && c.every((x) => typeof x === 'string' && SWARM_CONSTRAINT_RE.test(x));
    if (!ok)
      out.push({
        field: 'opts.constraints',
        message: `constraints must be at most ${SWARM_CONSTRAINTS_MAX} strings of the form key==value or key!=value`,
      });
  }
  if (opts['replicas'] !== undefined && opts['replicas'] !== 1) {
    out.push({ field: 'opts.replicas', message: 'replicas must be 1 (one agent is one task; the orchestrator decides about restarts)' });
  }
  const node = opts['node'];
  if (node !== undefined && (typeof node !== 'string' || !/^[a-z0-9]{1,64}$/.test(node))) {
    out.push({ field: 'opts.node', message: 'node must be a swarm node id' });
  }
  return out;
}
