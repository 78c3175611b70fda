import * as path from 'node:path';
import { EngineError } from '@genswarms/engine';
import { checkConfinedPath, readConfinedConfig } from '@genswarms/security';
import type { RouteContext } from '../route';
import type { RouteHandlers } from './route-kit';
import { anyRoute } from './route-kit';
import { ContentBodySchema, InlineBodySchema, PathBodySchema } from '../operations/config-validate-bodies';

const FORMATS = new Set(['json', 'yaml', 'yml']);

type Outcome = { status: 200; body: Record<string, unknown> } | { status: 400; body: Record<string, unknown> };

const refuse = (error: string, message: string, extra?: Record<string, unknown>): Outcome => ({
  status: 400,
  body: { valid: false, error, message, ...extra },
});

async function validateValue(ctx: RouteContext, value: unknown, format: string, baseDir: string): Promise<Outcome> {
  // The start gate, so a config `POST /api/swarms` would refuse (e.g. tmux + isolated) is invalid here too.
  const result = ctx.validator.gateStart(value, { baseDir });
  if (result.kind === 'refused') {
    const { kind: _kind, error, message, ...details } = result;
    return refuse(error, message, details);
  }
  if (ctx.engine === undefined) return { status: 200, body: { valid: true, format, config: result.summary } };
  // With an engine, every plan-time check start runs (handlers, overlay, each agent's runner plan).
  try {
    return { status: 200, body: { valid: true, format, config: await ctx.engine.validateConfig(value, baseDir) } };
  } catch (err) {
    if (err instanceof EngineError && err.status < 500) return refuse(err.code, err.message, err.details);
    throw err;
  }
}

async function validateText(ctx: RouteContext, text: string | Buffer, format: 'json' | 'yaml' | 'yml', baseDir: string): Promise<Outcome> {
  const loaded = ctx.validator.parseConfigText(text, format);
  if (loaded.kind === 'invalid') return refuse(loaded.code, loaded.message);
  return validateValue(ctx, loaded.value, format, baseDir);
}

async function validateFromPath(ctx: RouteContext, configPath: unknown): Promise<Outcome> {
  const read = await readConfinedConfig(ctx.config.configDir, configPath);
  if (read.kind === 'refused') return refuse(read.code, read.message);
  const checked = checkConfinedPath(ctx.config.configDir, configPath);
  const baseDir = checked.kind === 'ok' ? path.dirname(checked.candidate) : ctx.config.configDir;
  return validateText(ctx, read.content, read.format, baseDir);
}

async function validateBody(ctx: RouteContext, body: unknown): Promise<Outcome> {
  const inline = InlineBodySchema.safeParse(body);
  if (inline.success) return validateValue(ctx, inline.data.config, 'json', ctx.config.configDir);
  const byPath = PathBodySchema.safeParse(body);
  if (byPath.success) return validateFromPath(ctx, byPath.data.config_path);
  const byContent = ContentBodySchema.safeParse(body);
  if (byContent.success) {
    const { content, format } = byContent.data;
    if (!FORMATS.has(format)) return refuse('unsupported_format', 'format must be json, yaml or yml');
    return validateText(ctx, content, format as 'json' | 'yaml' | 'yml', ctx.config.configDir);
  }
  return refuse('validation_failed', 'Send exactly one of {config}, {config_path} or {content, format}');
}

/**
 * Config validation (docs/rest-api.md), with or without an engine: every plan-time check of start (schema, IR,
 * handlers, the networks per backend, each agent's runner plan; nothing created), `config_path` confined per
 * docs/security.md#7-config_path-confinement-genswarms_swarm_config_dir.
 */
export const CONFIG_VALIDATE_HANDLERS = {
  validateConfig: anyRoute(async (req, ctx) => {
    const outcome = await validateBody(ctx, req.body);
    return { status: outcome.status, body: outcome.body };
  }),
} satisfies RouteHandlers;
