import { BACKEND_TYPES, CLIENT_PRESETS, NETWORK_KEYWORDS, TMUX_RUNNERS, isRecord, viewBackend } from '@genswarms/ir-gate';
import type { AgentConfig } from '@genswarms/ir-gate';
import { oneLine } from '../cli/format';
import { caretLines, locatePath } from './source-location';

/** Enum-like fields: what a schema issue at that path may hold (zod says only "Invalid input" for unions). */
const ALLOWED_VALUES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\.)backend$/, `a backend type (${BACKEND_TYPES.join(', ')}) or {type, runner?, opts?}; tmux runner: ${TMUX_RUNNERS.join(', ')}`],
  [/(^|\.)backend\.type$/, BACKEND_TYPES.join(', ')],
  [/(^|\.)backend\.runner$/, TMUX_RUNNERS.join(', ')],
  [/(^|\.)client$/, `${CLIENT_PRESETS.join(', ')} or {command: [argv…]}`],
  [/(^|\.)network$/, `${NETWORK_KEYWORDS.join(', ')} or a Docker network name`],
];
/** Detail fields of a refusal that are not values of the config. */
const NOT_VALUES: ReadonlySet<string> = new Set(['file', 'valid', 'error', 'message', 'issues', 'agent', 'config']);
const UNRECOGNISED_KEY_RE = /^Unrecognized keys?: "([^"]+)"/;

/** What an invalid file came from: its text (for the caret) and parsed value (to find an agent's index). */
export interface ConfigSource {
  readonly text: string;
  readonly value: unknown;
}

function allowedFor(path: string, message: string): string {
  if (/expected one of|must be/.test(message)) return ''; // the message already says it
  const hit = ALLOWED_VALUES.find(([re]) => re.test(path));
  return hit === undefined ? '' : `; allowed: ${hit[1]}`;
}

function withCaret(source: ConfigSource | undefined, path: string, key?: string): string[] {
  const loc = source === undefined ? undefined : locatePath(source.text, path, key);
  return loc === undefined ? [] : caretLines(loc, '      ');
}

/** `  <path>: <message>[; allowed: …]` and the offending line with a caret, for one schema or IR issue. */
function issueBlock(issue: unknown, source: ConfigSource | undefined): string[] {
  if (!isRecord(issue) || typeof issue['path'] !== 'string' || typeof issue['message'] !== 'string')
    return [`  ${oneLine(JSON.stringify(issue), 400)}`];
  const path = issue['path'];
  const message = oneLine(issue['message'], 400);
  const key = UNRECOGNISED_KEY_RE.exec(issue['message'])?.[1];
  return [`  ${path === '' ? '(root)' : path}: ${message}${allowedFor(path, message)}`, ...withCaret(source, path, key)];
}

function agentIndex(source: ConfigSource | undefined, agent: string): number {
  const agents = isRecord(source?.value) ? source.value['agents'] : undefined;
  return Array.isArray(agents) ? agents.findIndex((a) => isRecord(a) && a['name'] === agent) : -1;
}

/**
 * A refusal naming an agent (a plan code): `  agents.2 (scraper): unsupported_network: <message> (backend local,
 * network "isolated")` — the backend from the file, the values from the refusal's detail fields — then the line.
 */
function agentBlock(r: Readonly<Record<string, unknown>>, agent: string, source: ConfigSource | undefined): string[] {
  const i = agentIndex(source, agent);
  const where = i < 0 ? oneLine(agent, 64) : `agents.${i} (${oneLine(agent, 64)})`;
  const spec = i < 0 || !isRecord(source?.value) ? undefined : (source.value['agents'] as unknown[])[i];
  const values = Object.entries(r)
    .filter(([k, v]) => !NOT_VALUES.has(k) && (typeof v === 'string' || typeof v === 'number'))
    .map(([k, v]) => `${oneLine(k, 32)} ${JSON.stringify(typeof v === 'string' ? oneLine(v, 200) : v)}`);
  if (isRecord(spec)) values.unshift(`backend ${viewBackend(spec['backend'] as AgentConfig['backend']).type}`);
  const fieldKey = Object.keys(r).find((k) => !NOT_VALUES.has(k) && isRecord(spec) && k in spec);
  const path = i < 0 ? '' : fieldKey === undefined ? `agents.${i}` : `agents.${i}.${fieldKey}`;
  const text = `  ${where}: ${String(r['error'])}: ${oneLine(String(r['message']), 400)}${values.length > 0 ? ` (${values.join(', ')})` : ''}`;
  return [text, ...(path === '' ? [] : withCaret(source, path))];
}

/** The lines under `<file>: invalid: <code>: <message>`: each issue, or the agent of a plan code, with the offending line. */
export function invalidDetailLines(r: Readonly<Record<string, unknown>>, source: ConfigSource | undefined): string[] {
  const issues = Array.isArray(r['issues']) ? (r['issues'] as unknown[]) : [];
  const lines = issues.flatMap((issue) => issueBlock(issue, source));
  if (typeof r['agent'] === 'string') lines.push(...agentBlock(r, r['agent'], source));
  return lines;
}
