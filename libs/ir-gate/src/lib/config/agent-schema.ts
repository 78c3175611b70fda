import path from 'node:path';
import { z } from 'zod';
import { AgentConfigSchema } from './agent-config-schema';
import { BackendSchema, backendProblems, viewBackend } from './backend-schema';
import { ClientSchema, clientProblem } from './client-schema';
import { AGENT_COUNT_MAX, TURN_TIMEOUT_MAX_MS } from './limits';
import { BudgetSchema, RateLimitSchema } from './llm-limits';
import { NameSchema } from './names';
import { NetworkSchema } from './network';

const NoNulPath = z
  .string()
  .min(1)
  .refine((s) => !s.includes('\0'), 'must not contain NUL');

/** Printable: no control characters (C0, DEL, C1). */
const ModelSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'must be printable')
  .describe('Model name, e.g. openai/gpt-4.1-mini (1..200 printable chars)');

function isHttpUrlWithHost(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    // expected: an unparsable URL is not a valid endpoint
    return false;
  }
}

/** Query parameter names that carry a credential (the redaction's secret names, plus `key`, `sig`, `auth`). */
const CREDENTIAL_PARAM = /key|token|secret|pass(wd|word)?|credential|sig|auth/i;

/**
 * An endpoint is shown by snapshots and stored as written (it is not a secret position): a credential in it — URL
 * userinfo or a credential-named query parameter — is refused, the key belongs in `api_key`.
 */
function carriesNoCredential(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.username === '' && u.password === '' && ![...u.searchParams.keys()].some((k) => CREDENTIAL_PARAM.test(k));
  } catch {
    // expected: an unparsable URL is refused by the URL check, not here
    return true;
  }
}

const EndpointSchema = z
  .string()
  .refine(isHttpUrlWithHost, 'must be an http(s) URL with a host')
  .refine(carriesNoCredential, 'must not carry a credential (user:password@ or a key/token query parameter): put the key in api_key')
  .describe('LLM endpoint (http or https URL with a host)');

/** What an endpoint speaks (docs/clients.md "Endpoint compatibility"); the runners hold the same list. */
export const ENDPOINT_API_NAMES = ['openai-responses', 'openai-chat', 'anthropic-messages'] as const;
const EndpointApiName = z.enum(ENDPOINT_API_NAMES);

const EndpointApiSchema = z
  .union([EndpointApiName, z.array(EndpointApiName).min(1).max(ENDPOINT_API_NAMES.length)])
  .describe('What the agent’s own endpoint speaks: one of openai-responses, openai-chat, anthropic-messages, or a list');

/** basename that ignores trailing slashes, so `a/web/` and `b/web` collide. */
export function skillBasename(p: string): string {
  return path.posix.basename(p.replace(/\/+$/, '')) || p;
}

const SkillsSchema = z
  .array(NoNulPath)
  .superRefine((skills, ctx) => {
    const seen = new Set<string>();
    skills.forEach((s, i) => {
      const base = skillBasename(s);
      if (seen.has(base)) ctx.addIssue({ code: 'custom', path: [i], message: 'skill basenames must be unique' });
      seen.add(base);
    });
  })
  .describe('Skill files or directories (relative paths resolve against the config directory)');

/** `ref` of a git workspace: a plain revision name (no shell syntax, no leading `-`, no `..` range). */
const GitRefSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^(?!-)[A-Za-z0-9._/~^{}@+-]+$/, 'must be a plain revision name (letters, digits and . _ / ~ ^ { } @ + -; no leading -)')
  .refine((r) => !r.includes('..'), 'must name one revision, not a range')
  .describe('Revision of the repository the clone starts from (default HEAD)');

/** A git workspace: the agent works on its own clone of the operator's repository (docs/configuration.md). */
export const GitWorkspaceSchema = z
  .strictObject({
    git: NoNulPath.describe(
      "Path of the operator's repository (below a workspace root; relative paths resolve against the config directory)",
    ),
    ref: GitRefSchema.optional(),
  })
  .describe('Git workspace: a clone of the repository at ref, on the branch genswarms/<swarm>/<agent>');

export type GitWorkspaceConfig = z.infer<typeof GitWorkspaceSchema>;

const WorkspaceSchema = z
  .union([NoNulPath, GitWorkspaceSchema])
  .describe('Workspace directory (default $GENSWARMS_HOME/workspaces/<swarm>/<agent>), or {git, ref} for a clone of a repository');

/** The fields of an agent entry, before the cross-field checks. */
const AgentFields = z.strictObject({
  name: NameSchema,
  backend: BackendSchema.optional(),
  client: ClientSchema.optional(),
  model: ModelSchema.optional(),
  endpoint: EndpointSchema.optional(),
  endpoint_api: EndpointApiSchema.optional(),
  api_key: z.string().optional().describe('API key for the endpoint (secret: redacted everywhere)'),
  skills: SkillsSchema.optional(),
  network: NetworkSchema.optional(),
  workspace: WorkspaceSchema.optional(),
  unsafe_bypass: z.boolean().optional().describe('Add the client bypass flags (JSON boolean, default false)'),
  reply_to: NameSchema.optional().describe('Object that receives this agent’s replies'),
  turn_timeout_ms: z.number().int().min(1).max(TURN_TIMEOUT_MAX_MS).optional().describe('Turn timeout in ms'),
  budget: BudgetSchema.optional(),
  rate_limit: RateLimitSchema.optional(),
  config: AgentConfigSchema.optional(),
});

type AgentDraft = z.infer<typeof AgentFields>;

function refineAgent(agent: AgentDraft, ctx: z.RefinementCtx): void {
  const b = viewBackend(agent.backend);
  for (const p of backendProblems(b)) {
    const where = typeof agent.backend === 'object' ? ['backend', ...p.field.split('.')] : ['backend'];
    ctx.addIssue({ code: 'custom', path: where, message: p.message });
  }
  if (agent.endpoint_api !== undefined && agent.endpoint === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['endpoint_api'],
      message: 'endpoint_api describes the agent’s own endpoint: set endpoint too',
    });
  }
  const clientIssue = clientProblem(agent.client, b);
  if (clientIssue !== null) ctx.addIssue({ code: 'custom', path: ['client'], message: clientIssue });
}

export const AgentSchema = AgentFields.superRefine(refineAgent).describe('An agent');

export type AgentConfig = z.infer<typeof AgentSchema>;

/**
 * An agent entry of a swarm config: an agent, or with `count` a template declaring `<name>_1 … <name>_<count>`
 * (the names `scale_agent_group` gives; docs/configuration.md "Many agents from one entry").
 */
export const AgentEntrySchema = AgentFields.extend({
  count: z
    .number()
    .int()
    .min(1)
    .max(AGENT_COUNT_MAX)
    .optional()
    .describe(`Instances of this entry, named <name>_1 … <name>_<count> (1..${AGENT_COUNT_MAX})`),
})
  .superRefine(refineAgent)
  .describe('An agent, or with count a template of count agents');

export type AgentEntry = z.infer<typeof AgentEntrySchema>;
