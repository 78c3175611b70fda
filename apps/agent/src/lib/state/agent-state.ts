import { join } from 'node:path';
import { ensureRealDir, readBoundedFile, writeFileAtomically } from '../fs/safe-fs';
import { integer, literal, object, validate } from '../validate/strict';

/** `<workspace>/.genswarms/agent-state.json`. */
export const AGENT_STATE_FILE = 'agent-state.json';
const STATE_MAX_BYTES = 64 * 1024;

/**
 * Items are handled strictly in seq order and the engine's seq only grows, so "processed" is a
 * watermark: every seq ≤ `processedThrough` is done (answered, or skipped as unreadable).
 */
const AgentStateSchema = object(
  {
    v: literal(1), // format version
    processedThrough: integer(), // highest inbox seq already handled
  },
  'strict',
);
export interface AgentState {
  readonly v: 1;
  readonly processedThrough: number;
}

export type AgentStateLoad = { kind: 'ok'; state: AgentState } | { kind: 'missing' } | { kind: 'invalid'; reason: string };

export function agentStateDir(workspace: string): string {
  return join(workspace, '.genswarms');
}

/** Loads the state; only `missing` means "start from scratch" — an unreadable file is reported, not ignored. */
export async function loadAgentState(workspace: string): Promise<AgentStateLoad> {
  const read = await readBoundedFile(join(agentStateDir(workspace), AGENT_STATE_FILE), STATE_MAX_BYTES);
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'refused') return { kind: 'invalid', reason: read.reason };
  try {
    const parsed = validate(AgentStateSchema, JSON.parse(read.data.toString('utf8')));
    return parsed.kind === 'ok' ? { kind: 'ok', state: parsed.value } : { kind: 'invalid', reason: 'unexpected shape' };
  } catch {
    // expected: an unparsable state file is the 'invalid' result
    return { kind: 'invalid', reason: 'not JSON' };
  }
}

/** Atomic replace (temp + rename); `.genswarms` must be (or become) a real directory. */
export async function saveAgentState(workspace: string, state: AgentState): Promise<void> {
  const dir = agentStateDir(workspace);
  if (!(await ensureRealDir(dir))) throw new Error('.genswarms is not a real directory');
  await writeFileAtomically(dir, AGENT_STATE_FILE, `${JSON.stringify(state)}\n`);
}
