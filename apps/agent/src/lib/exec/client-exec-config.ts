import { arrayOf, describeInvalid, literal, object, string, validate } from '../validate/strict';

/** Most words of a client's per-turn argv (the adapters use about ten). */
export const CLIENT_EXEC_MAX_WORDS = 64;
/** Longest word of it (a model name, a path). */
export const CLIENT_EXEC_WORD_MAX_CHARS = 4096;

/** A word: not empty, no NUL. */
const WORD_RE = /^[^\0]+$/;
/** The executable: an absolute path, or a bare name looked up on PATH (never a relative path). */
const EXECUTABLE_RE = /^(\/[^\0]*|[^/\0]+)$/;

/**
 * GENSWARMS_CLIENT_EXEC, set by the runner for a headless codex/claude/opencode agent (docs/agent.md
 * "Running a coding client per turn"): `{"v":1,"client":"codex","argv":[…]}`, exactly those keys.
 */
const ClientExecSchema = object(
  {
    v: literal(1), // format version
    client: string({ pattern: /^(codex|claude|opencode)$/ }), // which published client
    argv: arrayOf(string({ pattern: WORD_RE, maxLength: CLIENT_EXEC_WORD_MAX_CHARS }), { min: 1, max: CLIENT_EXEC_MAX_WORDS }), // executable + words; the prompt is appended
  },
  'strict',
);

/** What the agent runs once per turn. */
export interface ClientExec {
  readonly client: 'codex' | 'claude' | 'opencode';
  readonly argv: readonly [string, ...string[]];
}

export type ClientExecLoad = { kind: 'ok'; exec: ClientExec } | { kind: 'invalid'; reason: string };

/** Parses the variable; reasons name the field, never a value. */
export function parseClientExec(raw: string): ClientExecLoad {
  let json: unknown;
  try {
    json = JSON.parse(raw) as unknown;
  } catch {
    return { kind: 'invalid', reason: 'is not JSON' }; // expected: a damaged variable is refused at start
  }
  const result = validate(ClientExecSchema, json);
  if (result.kind === 'invalid') return { kind: 'invalid', reason: describeInvalid(result) };
  const [first, ...rest] = result.value.argv;
  if (first === undefined || !EXECUTABLE_RE.test(first))
    return { kind: 'invalid', reason: 'argv[0] must be an absolute path or a bare name' };
  return { kind: 'ok', exec: { client: result.value.client as ClientExec['client'], argv: [first, ...rest] } };
}
