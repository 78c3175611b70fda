/** Wire schemas of git workspaces (docs/rest-api.md "Git workspaces"): answers and the fetch command. */
import { NameSchema } from '@genswarms/ir-gate';
import type { AgentChanges } from '@genswarms/runners';
import { z } from 'zod';
import { EngineError } from '../errors/engine-error';
import type { AgentGitDiff, GitWorkFetched } from './git-types';

/** Agent names of one fetch, at most. */
export const GIT_FETCH_AGENTS_MAX = 1000;

const Sha = z
  .string()
  .regex(/^[0-9a-f]{40}$/)
  .describe('Commit id');

const ChangedFileSchema = z
  .object({
    path: z.string().describe('Path (control characters and bytes that are not UTF-8 shown as \\xNN, a backslash as \\\\)'),
    status: z.enum(['added', 'modified', 'deleted', 'type_changed']).describe('What happened to the file'),
    additions: z.number().int().nullable().describe('Lines added (null: binary)'),
    deletions: z.number().int().nullable().describe('Lines deleted (null: binary)'),
  })
  .describe('A file changed from the clone’s start');

const AgentCommitSchema = z
  .object({
    sha: Sha,
    author: z.string().describe('Author name as the agent wrote it (control characters replaced)'),
    date: z.string().describe('Author date (ISO 8601)'),
    subject: z.string().describe('First line of the message (control characters replaced)'),
  })
  .describe('A commit on the agent’s branch');

export const AgentChangesSchema = z
  .object({
    base: Sha.describe('The commit the clone started from'),
    head: Sha.describe('What is compared with base: the snapshot of the working tree, else the branch head'),
    branch: z.string().describe('The agent’s branch (genswarms/<swarm>/<agent>)'),
    branch_head: Sha.describe('The agent’s branch head (base when it committed nothing)'),
    uncommitted: z.boolean().describe('The working tree differs from the branch head'),
    files: z.array(ChangedFileSchema).readonly().describe('Files changed from base, committed and not'),
    commits: z.array(AgentCommitSchema).readonly().describe('Commits on the branch since base, newest first'),
    truncated: z.boolean().describe('A limit cut the list or the working tree snapshot'),
    skipped: z.number().int().describe('Objects or files left out (links to nowhere, FIFOs, oversize, corrupt)'),
  })
  .describe('An agent’s git work: committed and uncommitted');

export const AgentGitDiffSchema = z
  .object({
    base: Sha,
    head: Sha,
    diff: z.string().describe('Unified diff (or --stat), cut with a note past the size limit'),
    truncated: z.boolean(),
  })
  .describe('The unified diff of an agent’s git work');

export const GitWorkFetchedSchema = z
  .object({
    fetched: z
      .array(
        z.object({
          agent: z.string(),
          branch: z.string().describe('Branch created or moved in the operator’s repository'),
          commit: Sha,
          uncommitted: z.boolean().describe('The commit is the host’s snapshot of the working tree'),
        }),
      )
      .readonly(),
    failed: z.array(z.object({ agent: z.string(), error: z.string(), message: z.string() })).readonly(),
  })
  .describe('What a fetch took into the operator’s repository');

export const GitFetchCommandSchema = z
  .strictObject({
    agents: z
      .array(NameSchema)
      .max(GIT_FETCH_AGENTS_MAX)
      .optional()
      .describe('Agents to fetch (default: every agent with a git workspace)'),
    include_uncommitted: z.boolean().optional().describe('Take the working tree too, as a commit made by the host'),
  })
  .meta({ id: 'GitFetchCommand' })
  .describe('Take agents’ git work into the operator’s repository');

export type GitFetchCommand = z.infer<typeof GitFetchCommandSchema>;

export function parseGitFetchCommand(body: unknown): GitFetchCommand {
  const parsed = GitFetchCommandSchema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new EngineError('validation_failed', 'Send {agents?: [names], include_uncommitted?: boolean}.', {
      issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    });
  }
  return parsed.data;
}

export const GIT_ANSWER_SCHEMAS = {
  AgentChanges: AgentChangesSchema,
  AgentGitDiff: AgentGitDiffSchema,
  GitWorkFetched: GitWorkFetchedSchema,
} as const;

export const GIT_COMMAND_SCHEMAS = { GitFetchCommand: GitFetchCommandSchema } as const;

type Fits<Value extends Schema, Schema> = [Value, Schema];
/** Fails to compile when an engine type stops fitting its schema. */
export type GitSchemaChecks = [
  Fits<AgentChanges, z.output<typeof AgentChangesSchema>>,
  Fits<AgentGitDiff, z.output<typeof AgentGitDiffSchema>>,
  Fits<GitWorkFetched, z.output<typeof GitWorkFetchedSchema>>,
];
