/** Answers of the git workspace operations (their wire schemas are in git-schemas.ts). */
import type { TakenWork } from '@genswarms/runners';

export interface AgentGitDiff {
  readonly base: string;
  readonly head: string;
  readonly diff: string;
  readonly truncated: boolean;
}

export interface GitWorkFetched {
  readonly fetched: (TakenWork & { agent: string })[];
  readonly failed: { agent: string; error: string; message: string }[];
}
