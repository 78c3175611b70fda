/** CONTRACT §14.4: message marker blocks in reply.md. */
export type MarkerBlock = { readonly kind: 'to'; readonly to: string; readonly content: string } | { readonly kind: 'broadcast'; readonly content: string };

export interface ExtractedMarkers {
  readonly blocks: readonly MarkerBlock[];
  /** reply.md minus every marker block, trimmed. */
  readonly replyText: string;
}

/** `<name>` uses the Name grammar (so `-` is allowed); one optional \r?\n after START>>; non-greedy body. */
const MARKER_RE = /<<SWARM_MSG:(?:TO=([a-zA-Z][a-zA-Z0-9_-]{0,63})|BROADCAST):START>>(?:\r?\n)?([\s\S]*?)<<SWARM_MSG:END>>/g;

export function extractMarkers(text: string): ExtractedMarkers {
  const blocks: MarkerBlock[] = [];
  for (const m of text.matchAll(MARKER_RE)) {
    const content = (m[2] ?? '').trim();
    if (content === '') continue;
    const to = m[1];
    blocks.push(to === undefined ? { kind: 'broadcast', content } : { kind: 'to', to, content });
  }
  return { blocks, replyText: text.replace(MARKER_RE, '').trim() };
}
