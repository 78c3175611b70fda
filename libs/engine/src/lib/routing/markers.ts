/** docs/messaging.md: message marker blocks in reply.md. */
export type MarkerBlock =
  { readonly kind: 'to'; readonly to: string; readonly content: string } | { readonly kind: 'broadcast'; readonly content: string };

export interface ExtractedMarkers {
  readonly blocks: readonly MarkerBlock[];
  /** reply.md minus every marker block, trimmed. */
  readonly replyText: string;
}

const PREFIX = '<<SWARM_MSG:';
const END = '<<SWARM_MSG:END>>';
/** A START header at exactly `lastIndex`: `<name>` uses the Name grammar (so `-` is allowed), then one optional \r?\n. */
const START_RE = /<<SWARM_MSG:(?:TO=([a-zA-Z][a-zA-Z0-9_-]{0,63})|BROADCAST):START>>(?:\r?\n)?/y;

/**
 * One linear pass (reply.md is agent-written, up to 1 MiB): a global regex with a lazy body rescans the
 * rest of the text from every unterminated START — quadratic, tens of seconds of blocked event loop for
 * a reply of repeated STARTs. Same result as that regex: a START with no END after it ends the scan
 * (no later START can have one either); each body runs to the next END.
 */
export function extractMarkers(text: string): ExtractedMarkers {
  const blocks: MarkerBlock[] = [];
  const kept: string[] = [];
  let from = 0;
  let at = text.indexOf(PREFIX);
  while (at >= 0) {
    START_RE.lastIndex = at;
    const start = START_RE.exec(text);
    if (start === null) {
      at = text.indexOf(PREFIX, at + 1);
      continue;
    }
    const bodyAt = START_RE.lastIndex;
    const endAt = text.indexOf(END, bodyAt);
    if (endAt < 0) break;
    kept.push(text.slice(from, at));
    const content = text.slice(bodyAt, endAt).trim();
    const to = start[1];
    if (content !== '') blocks.push(to === undefined ? { kind: 'broadcast', content } : { kind: 'to', to, content });
    from = endAt + END.length;
    at = text.indexOf(PREFIX, from);
  }
  kept.push(text.slice(from));
  return { blocks, replyText: kept.join('').trim() };
}
