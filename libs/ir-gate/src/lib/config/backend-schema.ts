import { z } from 'zod';
import { parseSshTarget } from './ssh-target';

/** Backend types a config may name (docs/configuration.md). */
export const BACKEND_TYPES = ['local', 'bwrap', 'docker', 'tmux', 'mock', 'ssh', 'apple_container'] as const;
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
    image: NoNulString.optional().describe('Container image (docker, tmux+docker, apple_container)'),
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
  const imageOk = b.type === 'docker' || b.type === 'apple_container' || (b.type === 'tmux' && b.runner === 'docker');
  if (b.image !== undefined && !imageOk) {
    out.push({ field: 'image', message: 'image is only allowed with docker, tmux+docker or apple_container' });
  }
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
