import path from 'node:path';
import type { z } from 'zod';
import { configToState } from '../convert/config-to-state';
import type { IrError, SwarmState } from '../state/types';
import { validateState } from '../state/validate-state';
import { expandAgentCounts } from './agent-count';
import { scanUntrusted } from './forbidden-keys';
import type { AgentConfig } from './agent-schema';
import type { SwarmConfig } from './swarm-schema';
import { SwarmConfigSchema } from './swarm-schema';
import type { ConfigIssue } from './types';

export type ConfigSummary = {
  name: string;
  agent_count: number;
  object_count: number;
  edge_count: number;
  agents: string[];
  objects: string[];
};

export type ConfigValidation =
  | { kind: 'ok'; config: SwarmConfig; state: SwarmState; summary: ConfigSummary }
  | {
      kind: 'invalid';
      error: 'validation_failed' | 'ir_validation_failed';
      message: string;
      issues: Array<ConfigIssue | IrError>;
    };

export interface ValidateOptions {
  /** Directory relative `workspace` and `skills` resolve against (the config file's directory). */
  readonly baseDir?: string;
  /** When given, every object handler must be one of these names. */
  readonly handlers?: readonly string[];
}

/** zod issues → `{path: "agents.0.name", message}`; messages never carry input values. */
export function toConfigIssues(error: z.ZodError): ConfigIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function schemaFailure(issues: ConfigIssue[]): ConfigValidation {
  return { kind: 'invalid', error: 'validation_failed', message: 'the swarm config does not match the schema', issues };
}

function resolvePaths(config: SwarmConfig, baseDir: string | undefined): SwarmConfig {
  if (baseDir === undefined) return config;
  const abs = (p: string): string => (path.isAbsolute(p) ? p : path.resolve(baseDir, p));
  return {
    ...config,
    agents: config.agents.map((a) => ({
      ...a,
      ...(a.workspace === undefined ? {} : { workspace: resolveWorkspace(a.workspace, abs) }),
      ...(a.skills === undefined ? {} : { skills: a.skills.map(abs) }),
    })),
  };
}

/** A workspace's relative paths resolved: the directory, or a git workspace's repository. */
export function resolveWorkspace(
  w: NonNullable<AgentConfig['workspace']>,
  abs: (p: string) => string,
): NonNullable<AgentConfig['workspace']> {
  return typeof w === 'string' ? abs(w) : { ...w, git: abs(w.git) };
}

function handlerIssues(config: SwarmConfig, handlers: readonly string[] | undefined): ConfigIssue[] {
  if (handlers === undefined) return [];
  return (config.objects ?? []).flatMap((o, i) =>
    handlers.includes(o.handler) ? [] : [{ path: `objects.${i}.handler`, message: 'not a registered handler' }],
  );
}

/** Summary used by POST /api/config/validate (docs/rest-api.md); counted entries are counted as their instances. */
export function summarizeConfig(compact: SwarmConfig): ConfigSummary {
  const config = expandAgentCounts(compact);
  return {
    name: config.name,
    agent_count: config.agents.length,
    object_count: config.objects?.length ?? 0,
    edge_count: config.topology?.length ?? 0,
    agents: config.agents.map((a) => a.name),
    objects: (config.objects ?? []).map((o) => o.name),
  };
}

function validateUnsafe(input: unknown, opts: ValidateOptions): ConfigValidation {
  const scan = scanUntrusted(input);
  if (scan.length > 0) return schemaFailure(scan);
  const parsed = SwarmConfigSchema.safeParse(input);
  if (!parsed.success) return schemaFailure(toConfigIssues(parsed.error));
  const handlers = handlerIssues(parsed.data, opts.handlers);
  if (handlers.length > 0) return schemaFailure(handlers);
  const config = resolvePaths(parsed.data, opts.baseDir);
  const state = configToState(config);
  const irError = validateState(state);
  if (irError !== null) {
    return { kind: 'invalid', error: 'ir_validation_failed', message: 'the swarm IR is invalid', issues: [irError] };
  }
  return { kind: 'ok', config, state, summary: summarizeConfig(config) };
}

/** Schema → config→IR → validateState (docs/ir.md). Never throws. */
export function validateConfig(input: unknown, opts: ValidateOptions = {}): ConfigValidation {
  try {
    return validateUnsafe(input, opts);
  } catch {
    // expected: a validator that throws on hostile input refuses it, never passes it
    return schemaFailure([{ path: '', message: 'the config could not be validated' }]);
  }
}
