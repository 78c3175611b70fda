import { z } from 'zod';
import type { EngineErrorCode } from '@genswarms/engine';
import { NameSchema } from '@genswarms/ir-gate';
import { TURN_ID_RE } from '@genswarms/receipts';

/** An error code and, when it differs from the engine's table, the status it is answered with. */
export type ErrorSpec = EngineErrorCode | readonly [code: string, status: number];

/**
 * One REST operation: the one place its method and path are written. Express registers it from this entry
 * (routes/index.ts binds a handler by `operationId`), `GET /` lists it and the OpenAPI document describes it.
 */
export interface Operation {
  readonly method: 'get' | 'post' | 'delete' | 'patch';
  /** Express form (`/api/swarms/:s`); the document uses `{s}`. */
  readonly path: string;
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  /**
   * `config`: the config token is accepted too; `public`: no token and no browser guards, mounted before
   * the auth step (the health probes only, docs/security.md).
   */
  readonly scope: 'full' | 'config' | 'public';
  readonly query?: z.ZodObject;
  readonly body?: { readonly name: string; readonly schema: z.ZodType };
  readonly success: {
    readonly status: 200 | 201;
    readonly name: string;
    readonly schema: z.ZodType;
    readonly yaml?: boolean;
    /** A text answer of this media type instead of JSON. */
    readonly text?: string;
  };
  /** Answers that are neither success nor ErrorBody (`/readyz` 503 `{status:"not_ready"}`). */
  readonly otherResponses?: Readonly<Record<string, { readonly name: string; readonly schema: z.ZodType }>>;
  readonly errors: readonly ErrorSpec[];
  /** A 400 answered with this body instead of ErrorBody (config validate answers `valid:false`). */
  readonly badRequestBody?: { readonly name: string; readonly schema: z.ZodType };
}

/** Descriptions of the path parameters (all Names but `name`, a skill name). */
export const PATH_PARAMS: Readonly<Record<string, { readonly description: string; readonly schema: z.ZodType }>> = {
  s: { description: 'Swarm name', schema: NameSchema },
  a: { description: 'Agent name', schema: NameSchema },
  o: { description: 'Object name', schema: NameSchema },
  base: { description: 'Base name of an agent group', schema: NameSchema },
  t: { description: 'Turn id', schema: z.string().regex(TURN_ID_RE) },
  name: { description: 'Skill name (".md" optional; a name inside a category is found through the catalogue)', schema: z.string() },
};
