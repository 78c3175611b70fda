import { isName } from '../config/names';

/** One directed message taken from an `@name: text` line. */
export interface AtMessage {
  readonly to: string;
  readonly content: string;
}

const AT_LINE_RE = /^@([^\s:]+):[ \t]*(.*?)\s*$/;
const MARKER_START_RE = /<<SWARM_MSG:(?:TO=[^:>]*|BROADCAST):START>>/;
const MARKER_END = '<<SWARM_MSG:END>>';

/**
 * Lines `@name: text` (line start, name in the Name grammar AND in the topology, non-empty text).
 * Lines inside SWARM_MSG blocks are part of that block's message and are not taken again.
 */
export function extractAtMessages(answer: string, topology: readonly string[]): AtMessage[] {
  const targets = new Set(topology);
  const messages: AtMessage[] = [];
  let inBlock = false;
  for (const line of answer.split(/\r?\n/)) {
    if (inBlock) {
      if (line.includes(MARKER_END)) inBlock = false;
      continue;
    }
    if (MARKER_START_RE.test(line)) {
      inBlock = !line.slice(line.search(MARKER_START_RE)).includes(MARKER_END);
      continue;
    }
    const m = AT_LINE_RE.exec(line);
    const to = m?.[1];
    const content = m?.[2];
    if (to === undefined || content === undefined || content === '') continue;
    if (isName(to) && targets.has(to)) messages.push({ to, content });
  }
  return messages;
}
